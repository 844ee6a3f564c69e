import Foundation
import Logging
import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol
import TallyWorker
import Testing

/// `history.months`, `history.month` and `history.dashboard` through the dispatcher: whole requests, Pro gating and
/// every history-specific bad input with its code and field (the shared keys are covered by the streak table).
@Suite struct HistoryMethodTests {
    static let registry = MethodRegistry.allMethods(identity: WorkerIdentity(name: "history-test/1", version: "test"))
    static let dispatcher = registry.dispatcher(limits: RequestLimits())
    static let strictDispatcher = registry.dispatcher(limits: RequestLimits(maxBodyBytes: 1 << 20, maxListElements: 5))

    static let goal8000 = #""goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#
    static let newYork = #""time_zone":"America/New_York""#

    func respond(
        _ method: String, _ params: String, dispatcher: RequestDispatcher = Self.dispatcher
    ) throws -> [String: Any] {
        let body = #"{"version":1,"id":"h","method":"\#(method)","params":{\#(params)}}"#
        let reply = dispatcher.respond(to: Array(body.utf8), service: "tally.history", logger: Logger(label: "test"))
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any])
    }

    func result(_ method: String, _ params: String) throws -> [String: Any] {
        let response = try respond(method, params)
        return try #require(response["result"] as? [String: Any], "expected a result in \(response)")
    }

    func error(_ method: String, _ params: String) throws -> (code: String?, field: String?) {
        let response = try respond(method, params, dispatcher: Self.strictDispatcher)
        let error = try #require(response["error"] as? [String: Any], "expected an error in \(response)")
        return (error["code"] as? String, (error["details"] as? [String: Any])?["field"] as? String)
    }

    /// Records on the 10th of every month from 2025-09 to 2026-02, and one in the future.
    static let sixMonths =
        #""records":["#
        + ["2025-09", "2025-10", "2025-11", "2025-12", "2026-01", "2026-02", "2026-04"]
        .map { #"{"date":"\#($0)-10","steps":9000}"# }.joined(separator: ",") + "]"

    @Test func monthsFreeAndPro() throws {
        // 23:30 EST on 03-10 (04:30Z on 03-11): today is 2026-03-10 in New York; the April record is future.
        let params = #"\#(Self.newYork),"now":"2026-03-11T03:30:00Z",\#(Self.sixMonths)"#
        let free = try result("history.months", params)
        #expect(free["as_of"] as? String == "2026-03-10")
        #expect(free["current_month"] as? String == "2026-03")
        #expect(free["months"] as? [String] == ["2026-01", "2026-02", "2026-03"])
        #expect(free["locked_months"] as? Int == 4)
        #expect(free["future_records_ignored"] as? Int == 1)
        let pro = try result("history.months", params + #","is_pro":true"#)
        #expect((pro["months"] as? [String])?.first == "2025-09")
        #expect((pro["months"] as? [String])?.count == 7)
        #expect(pro["locked_months"] as? Int == 0)
    }

    @Test func monthGridRowsAndNavigation() throws {
        let result = try result(
            "history.month",
            #"""
            \#(Self.newYork),"today":"2026-02-20","week_starts_on":"monday","month":"2026-02",
            "goal_log":[{"effective_date":"2026-02-15","goal":10000},{"effective_date":"2026-01-01","goal":8000}],
            "records":[{"date":"2026-02-14","steps":9000,"distance_m":6500.5,"calories_kcal":310},
                       {"date":"2026-02-15","steps":9000},{"date":"2026-02-16","steps":0},
                       {"date":"2026-01-05","steps":100},{"date":"2026-02-21","steps":5}]
            """#)
        #expect(result["month"] as? String == "2026-02")
        #expect(result["goal_tracking_enabled"] as? Bool == true)
        let grid = try #require(result["grid"] as? [String: Any])
        #expect(grid["leading_blanks"] as? Int == 6)
        #expect((grid["weeks"] as? [[Any]])?.count == 5)
        #expect((grid["columns"] as? [String])?.first == "monday")
        let days = try #require(result["days"] as? [[String: Any]])
        #expect(days.count == 28)
        #expect(days[13]["state"] as? String == "completed")
        #expect(days[13]["goal"] as? Int == 8000)
        #expect(days[13]["distance_m"] as? Double == 6500.5)
        #expect(days[14]["state"] as? String == "in_progress")
        #expect(days[14]["progress"] as? Double == 0.9)
        #expect(days[14]["intensity"] as? Double == 0.9)
        #expect(days[15]["state"] as? String == "zero")
        #expect(days[16]["state"] as? String == "no_data")
        #expect(days[16]["steps"] is NSNull)
        #expect(days[19]["is_today"] as? Bool == true)
        #expect(days[20]["state"] as? String == "future")
        #expect(days[20]["is_future"] == nil)  // the state says it
        #expect(days[20]["steps"] is NSNull)
        let rows = try #require(result["rows"] as? [[String: Any]])
        #expect(rows.map { $0["date"] as? String } == ["2026-02-16", "2026-02-15", "2026-02-14"])
        let totals = try #require(result["totals"] as? [String: Any])
        #expect(totals["steps"] as? Int == 18_000)
        #expect(totals["count"] as? Int == 3)
        #expect(totals["calories_kcal"] as? Double == 310)
        #expect(totals["flights_climbed"] is NSNull)
        #expect(result["completed_days"] as? Int == 1)
        #expect(result["previous_month"] as? String == "2026-01")
        #expect(result["next_month"] is NSNull)
        #expect(result["future_records_ignored"] as? Int == 1)
    }

    @Test func oldMonthsNeedPro() throws {
        let params = #"\#(Self.newYork),"today":"2026-03-10",\#(Self.goal8000),\#(Self.sixMonths)"#
        let locked = try respond("history.month", params + #","month":"2025-12""#)
        let error = try #require(locked["error"] as? [String: Any])
        #expect(error["code"] as? String == "pro_required")
        #expect((error["details"] as? [String: Any])?["field"] as? String == "params.month")
        let pro = try result("history.month", params + #","month":"2025-12","is_pro":true"#)
        #expect(pro["previous_month"] as? String == "2025-11")
        #expect(pro["next_month"] as? String == "2026-01")
        // The default month is the current one.
        #expect(try result("history.month", params)["month"] as? String == "2026-03")
    }

    @Test func dailyDashboardOnAFallBackDay() throws {
        let result = try result(
            "history.dashboard",
            #"""
            \#(Self.newYork),"now":"2026-11-01T15:10:00-05:00",\#(Self.goal8000),
            "records":[{"date":"2026-11-01","steps":8200}],
            "samples":[{"start":"2026-11-01T01:30:00-04:00","steps":100},{"start":"2026-11-01T01:30:00-05:00","steps":250},
                       {"start":"2026-11-01T14:59:00-05:00","steps":7850,"calories_kcal":12.5},
                       {"start":"2026-10-31T23:00:00-04:00","steps":40}]
            """#)
        #expect(result["mode"] as? String == "daily")
        #expect(result["date"] as? String == "2026-11-01")
        let hours = try #require(result["hours"] as? [[String: Any]])
        #expect(hours.count == 25)
        #expect(hours[1]["start"] as? String == "2026-11-01T01:00:00-04:00")
        #expect(hours[1]["steps"] as? Int == 100)
        #expect(hours[2]["start"] as? String == "2026-11-01T01:00:00-05:00")
        #expect(hours[2]["steps"] as? Int == 250)
        #expect(hours[3]["steps"] as? Int == 0)
        // From index 2 on, index k holds hour k − 1: 14:59 is in index 15, and 15:10 (now) in index 16.
        #expect(hours[15]["steps"] as? Int == 7850)
        #expect(hours[16]["is_future"] as? Bool == false)
        #expect(hours[17]["is_future"] as? Bool == true)
        #expect(hours[17]["steps"] is NSNull)
        #expect(result["has_hourly_data"] as? Bool == true)
        #expect(result["samples_ignored"] as? Int == 1)
        let totals = try #require(result["totals"] as? [String: Any])
        #expect(totals["steps"] as? Int == 8200)
        #expect(totals["calories_kcal"] as? Double == 12.5)
        #expect((result["day"] as? [String: Any])?["state"] as? String == "completed")
        #expect(result["review_prompt_due"] as? Bool == true)
        #expect(result["days"] == nil)
    }

    @Test func weeklyAndMonthlyNeedPro() throws {
        let params =
            #"\#(Self.newYork),"today":"2026-03-11",\#(Self.goal8000),"records":[{"date":"2026-03-09","steps":5}]"#
        for mode in ["weekly", "monthly"] {
            let failure = try respond("history.dashboard", params + #","mode":"\#(mode)""#)
            let error = try #require(failure["error"] as? [String: Any])
            #expect(error["code"] as? String == "pro_required")
            #expect((error["details"] as? [String: Any])?["field"] as? String == "params.mode")
        }
        let weekly = try result(
            "history.dashboard", params + #","mode":"weekly","is_pro":true,"week_starts_on":"monday""#)
        #expect(weekly["start_date"] as? String == "2026-03-09")
        #expect(weekly["end_date"] as? String == "2026-03-15")
        #expect((weekly["days"] as? [[String: Any]])?.count == 7)
        #expect(weekly["hours"] == nil)
        #expect(weekly["review_prompt_due"] as? Bool == false)
        let monthly = try result("history.dashboard", params + #","mode":"monthly","is_pro":true,"date":"2026-02-03""#)
        #expect((monthly["days"] as? [[String: Any]])?.count == 28)
        #expect(monthly["start_date"] as? String == "2026-02-01")
    }

    static let base = #"\#(newYork),"today":"2026-03-11",\#(goal8000),"records":[]"#
    static let sixSamples =
        #""samples":["# + (1...6).map { #"{"start":"2026-03-11T0\#($0):00:00Z","steps":1}"# }.joined(separator: ",")
        + "]"

    @Test(
        arguments: [
            ("history.month", #"\#(base),"month":"2026-04""#, "invalid_params", "params.month"),
            ("history.month", #"\#(base),"month":"2026-13""#, "invalid_params", "params.month"),
            ("history.month", #"\#(base),"month":"2026-3""#, "invalid_params", "params.month"),
            ("history.month", #"\#(base),"month":202603"#, "invalid_params", "params.month"),
            ("history.month", #"\#(base),"is_pro":"yes""#, "invalid_params", "params.is_pro"),
            ("history.month", #"\#(newYork),"today":"2026-03-11","records":[]"#, "invalid_params", "params.goal_log"),
            ("history.months", #"\#(newYork),"today":"2026-03-11","records":{}"#, "invalid_params", "params.records"),
            (
                "history.months", #"\#(newYork),"today":"2026-03-11","records":[{"date":"2026-02-30","steps":1}]"#,
                "invalid_params", "params.records[0].date"
            ),
            ("history.dashboard", #"\#(base),"date":"2026-03-12""#, "invalid_params", "params.date"),
            ("history.dashboard", #"\#(base),"date":"2026-02-29""#, "invalid_params", "params.date"),
            ("history.dashboard", #"\#(base),"mode":"yearly""#, "invalid_params", "params.mode"),
            ("history.dashboard", #"\#(base),"samples":{}"#, "invalid_params", "params.samples"),
            (
                "history.dashboard", #"\#(base),"samples":[{"start":"2026-03-11T08:00:00","steps":1}]"#,
                "invalid_params", "params.samples[0].start"
            ),
            (
                "history.dashboard", #"\#(base),"samples":[{"start":"2026-03-11T08:00:00Z"}]"#,
                "invalid_params", "params.samples[0].steps"
            ),
            (
                "history.dashboard", #"\#(base),"samples":[{"start":"2026-03-11T08:00:00Z","steps":-3}]"#,
                "invalid_params", "params.samples[0].steps"
            ),
            (
                "history.dashboard",
                #"\#(base),"samples":[{"start":"2026-03-11T08:00:00Z","steps":3,"flights_climbed":-1}]"#,
                "invalid_params", "params.samples[0].flights_climbed"
            ),
            ("history.dashboard", #"\#(base),\#(sixSamples)"#, "payload_too_large", "params.samples"),
        ] as [(String, String, String, String)])
    func badInputGetsAPreciseError(method: String, params: String, code: String, field: String) throws {
        let failure = try error(method, params)
        #expect(failure.code == code)
        #expect(failure.field == field)
    }

    @Test func paramsRoundTripThroughTheirOwnEncoding() throws {
        let time = RequestTime(timeZone: try #require(ZoneName("Europe/Berlin")), today: LocalDate("2026-03-11")!)
        let goals = GoalParams(log: [GoalChange(effectiveDate: LocalDate("2026-01-01")!, goal: 8000)])
        let records = [DailyRecordParams(date: LocalDate("2026-03-10")!, steps: 9000, distanceMeters: 7000)]
        let dashboard = HistoryDashboard.Params(
            time: time, goals: goals, records: records,
            samples: [StepSampleParams(start: Timestamp(Date(timeIntervalSince1970: 1_773_216_000)), steps: 4)],
            date: LocalDate("2026-03-10"), mode: .weekly, weekStartsOn: .monday, isPro: true)
        let encoded = try TallyJSON.encoder().encode(dashboard)
        #expect(try TallyJSON.decoder().decode(HistoryDashboard.Params.self, from: encoded) == dashboard)
        let month = HistoryMonth.Params(
            time: time, goals: goals, records: records, month: YearMonth(year: 2026, month: 2), isPro: true)
        #expect(
            try TallyJSON.decoder().decode(HistoryMonth.Params.self, from: TallyJSON.encoder().encode(month)) == month)
        let months = HistoryMonths.Params(time: time, records: records)
        #expect(
            try TallyJSON.decoder().decode(HistoryMonths.Params.self, from: TallyJSON.encoder().encode(months))
                == months)
    }

    @Test func threeYearsOfRecordsAreServed() throws {
        let today = LocalDate(year: 2026, month: 6, day: 30)!
        let records = (0..<1_100).map { #"{"date":"\#(today.adding(days: -$0))","steps":\#($0 * 17 % 12000)}"# }
        let list = records.joined(separator: ",")
        let result = try result(
            "history.month",
            #""time_zone":"UTC","today":"2026-06-30",\#(Self.goal8000),"is_pro":true,"month":"2024-02","records":[\#(list)]"#
        )
        #expect((result["days"] as? [[String: Any]])?.count == 29)
        #expect((result["rows"] as? [[String: Any]])?.count == 29)
    }
}

/// The ends of the calendar (0001-01-01 and 9999-12-31): every method answers, none loops or traps; a week that
/// would reach beyond them is refused rather than cut short.
@Suite struct HistoryCalendarEdgeTests {
    func response(_ method: String, _ params: String, service: String = "tally.history") throws -> [String: Any] {
        let body = #"{"version":1,"id":"edge","method":"\#(method)","params":{\#(params)}}"#
        let reply = HistoryMethodTests.dispatcher.respond(
            to: Array(body.utf8), service: service, logger: Logger(label: "test"))
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any])
    }

    func respond(_ method: String, _ params: String, service: String = "tally.history") throws -> [String: Any] {
        let response = try response(method, params, service: service)
        return try #require(response["result"] as? [String: Any], "expected a result in \(response)")
    }

    /// The error's code and field.
    func refusal(_ method: String, _ params: String) throws -> (code: String?, field: String?) {
        let response = try response(method, params)
        let error = try #require(response["error"] as? [String: Any], "expected an error in \(response)")
        return (error["code"] as? String, (error["details"] as? [String: Any])?["field"] as? String)
    }

    static let goals = #""goal_log":[{"effective_date":"0001-01-01","goal":8000}],"is_pro":true"#

    @Test func lastRepresentableDay() throws {
        let base = #""time_zone":"Pacific/Kiritimati","today":"9999-12-31",\#(Self.goals)"#
        let records = #""records":[{"date":"9999-12-31","steps":9000},{"date":"9999-12-30","steps":1}]"#
        let months = try respond("history.months", #"\#(base),\#(records)"#)
        #expect(months["months"] as? [String] == ["9999-12"])
        #expect(months["future_records_ignored"] as? Int == 0)
        let month = try respond("history.month", #"\#(base),\#(records)"#)
        #expect((month["days"] as? [[String: Any]])?.count == 31)
        #expect((month["rows"] as? [[String: Any]])?.count == 2)
        for mode in ["daily", "monthly"] {
            let dashboard = try respond("history.dashboard", #"\#(base),\#(records),"mode":"\#(mode)""#)
            #expect(dashboard["review_prompt_due"] as? Bool == true, "\(mode)")
        }
        let daily = try respond("history.dashboard", #"\#(base),\#(records)"#)
        #expect((daily["hours"] as? [[String: Any]])?.count == 24)
        // 9999-12-31 is a Friday: its week, by either first day, ends in year 10000.
        for weekStart in ["sunday", "monday"] {
            let weekly = #"\#(base),\#(records),"mode":"weekly","week_starts_on":"\#(weekStart)""#
            let error = try refusal("history.dashboard", weekly)
            #expect(error.code == "invalid_params" && error.field == "params.date", "\(weekStart)")
        }
        // The Monday-first week of 9999-12-20 ends on Sunday 9999-12-26: whole, so it is served.
        let lastWholeWeek = try respond(
            "history.dashboard",
            #"\#(base),\#(records),"mode":"weekly","week_starts_on":"monday","date":"9999-12-26""#)
        #expect((lastWholeWeek["days"] as? [[String: Any]])?.count == 7)
    }

    @Test func dayWhoseHoursReachYear10000IsRefused() throws {
        // In UTC the day 9999-12-31 ends at 10000-01-01T00:00:00Z: its last hour's end has no RFC 3339 form.
        let params = #""time_zone":"UTC","today":"9999-12-31",\#(Self.goals),"records":[]"#
        let error = try refusal("history.dashboard", params)
        #expect(error.code == "invalid_params" && error.field == "params.date")
    }

    @Test func firstRepresentableDay() throws {
        let base = #""time_zone":"America/Los_Angeles","today":"0001-01-01",\#(Self.goals)"#
        let records = #""records":[{"date":"0001-01-01","steps":9000}]"#
        for mode in ["daily", "monthly"] {
            let dashboard = try respond("history.dashboard", #"\#(base),\#(records),"mode":"\#(mode)""#)
            #expect((dashboard["day"] as? [String: Any])?["state"] as? String == "completed", "\(mode)")
        }
        // 0001-01-01 is a Monday: the Monday-first week starts on it, the Sunday-first week a day before it.
        let monday = try respond(
            "history.dashboard", #"\#(base),\#(records),"mode":"weekly","week_starts_on":"monday""#)
        #expect((monday["days"] as? [[String: Any]])?.first?["date"] as? String == "0001-01-01")
        #expect((monday["days"] as? [[String: Any]])?.count == 7)
        let sunday = try refusal("history.dashboard", #"\#(base),\#(records),"mode":"weekly""#)
        #expect(sunday.code == "invalid_params" && sunday.field == "params.date")
        let month = try respond("history.month", #"\#(base),\#(records),"week_starts_on":"monday""#)
        #expect((month["days"] as? [[String: Any]])?.count == 31)
    }

    @Test func streakAndWorkoutAtTheLastDay() throws {
        let time = #""time_zone":"UTC","today":"9999-12-31""#
        let goals = #""goal_log":[{"effective_date":"9999-12-01","goal":10}]"#
        let streak = try respond(
            "streak.summary", #"\#(time),\#(goals),"records":[{"date":"9999-12-31","steps":10}]"#,
            service: "tally.streak")
        #expect((streak["current_streak"] as? [String: Any])?["days"] as? Int == 1)
        let workout = #""workouts":[{"id":"w","name":"W","completed_at":"9999-12-31T10:00:00Z","exercises":[]}]"#
        let calendar = try respond("workout.calendar", #"\#(time),\#(workout)"#, service: "tally.workout")
        #expect(calendar["marked_days"] as? [String] == ["9999-12-31"])
        let day = try respond("workout.day", #"\#(time),"date":"9999-12-31",\#(workout)"#, service: "tally.workout")
        #expect((day["workouts"] as? [[String: Any]])?.count == 1)
    }
}
