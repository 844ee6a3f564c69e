import Foundation
import Logging
import TallyProtocol
import TallyWorker
import Testing

/// One rule for "today" and the future in every method (Protocol/README.md, *Today and the future*): every result
/// says `as_of`; what is future is left out everywhere and counted; a date or month after today is refused; and a
/// request that gives `today` names a whole day, so nothing of today is future for it.
@Suite struct TodayAndFutureTests {
    static let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "future/1", version: "test"))
        .dispatcher(limits: RequestLimits())

    func respond(_ method: String, service: String, _ params: String) throws -> [String: Any] {
        let body = #"{"version":1,"id":"f","method":"\#(method)","params":{\#(params)}}"#
        let reply = Self.dispatcher.respond(to: Array(body.utf8), service: service, logger: Logger(label: "test"))
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any])
    }

    func result(_ method: String, service: String, _ params: String) throws -> [String: Any] {
        let response = try respond(method, service: service, params)
        return try #require(response["result"] as? [String: Any], "expected a result in \(response)")
    }

    static func workout(_ id: String, at completedAt: String, template: String = "legs") -> String {
        #"{"id":"\#(id)","name":"Legs","completed_at":"\#(completedAt)","template_id":"\#(template)","exercises":[]}"#
    }

    /// 12:00 on 2026-06-14 in Los Angeles (19:00Z).
    static let noon = #""time_zone":"America/Los_Angeles","now":"2026-06-14T19:00:00Z""#
    /// The whole of 2026-06-14 in Los Angeles.
    static let wholeDay = #""time_zone":"America/Los_Angeles","today":"2026-06-14""#
    /// Yesterday, this morning (08:00 PDT), this evening (18:00 PDT) and tomorrow.
    static let workouts =
        "\"workouts\":["
        + [
            workout("yesterday", at: "2026-06-13T16:00:00Z"), workout("morning", at: "2026-06-14T15:00:00Z"),
            workout("evening", at: "2026-06-15T01:00:00Z"), workout("tomorrow", at: "2026-06-15T16:00:00Z"),
        ].joined(separator: ",") + "]"

    @Test func workoutDayLeavesOutWhatHasNotHappenedAndSaysAsOf() throws {
        let day = try result(
            "workout.day", service: "tally.workout", #"\#(Self.noon),"date":"2026-06-14",\#(Self.workouts)"#)
        #expect(day["as_of"] as? String == "2026-06-14")
        let shown = try #require(day["workouts"] as? [[String: Any]])
        #expect(shown.map { $0["id"] as? String } == ["morning"])
        // "Logged N times" counts yesterday and this morning, not this evening or tomorrow.
        #expect(shown.first?["times_logged"] as? Int == 2)
        #expect(day["future_workouts_ignored"] as? Int == 2)
    }

    @Test func givenOnlyTodayNothingOfTodayIsFuture() throws {
        let day = try result(
            "workout.day", service: "tally.workout", #"\#(Self.wholeDay),"date":"2026-06-14",\#(Self.workouts)"#)
        let shown = try #require(day["workouts"] as? [[String: Any]])
        #expect(shown.map { $0["id"] as? String } == ["morning", "evening"])
        #expect(shown.first?["times_logged"] as? Int == 3)
        #expect(day["future_workouts_ignored"] as? Int == 1)
    }

    @Test func aDateAfterTodayIsRefusedByWorkoutDayAsByTheDashboard() throws {
        for (method, service, extra) in [
            ("workout.day", "tally.workout", Self.workouts),
            ("history.dashboard", "tally.history", #""goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#),
        ] {
            let response = try respond(method, service: service, #"\#(Self.noon),"date":"2026-06-15",\#(extra)"#)
            let error = try #require(response["error"] as? [String: Any], "\(method) answered \(response)")
            #expect(error["code"] as? String == "invalid_params")
            #expect((error["details"] as? [String: Any])?["field"] as? String == "params.date")
        }
    }

    @Test func workoutCalendarLeavesTheFutureOutOfDaysStreakAndNavigation() throws {
        // Today is the last day of June; a workout "tomorrow" (07-01) must not mark a day, extend the streak or make
        // July reachable.
        let params =
            #""time_zone":"UTC","now":"2026-06-30T12:00:00Z","workouts":["#
            + [
                Self.workout("a", at: "2026-06-29T08:00:00Z"), Self.workout("b", at: "2026-06-30T08:00:00Z"),
                Self.workout("later-today", at: "2026-06-30T20:00:00Z"),
                Self.workout("tomorrow", at: "2026-07-01T08:00:00Z"),
            ].joined(separator: ",")
            + #"],"stretches":[{"id":"s","completed_at":"2026-07-02T08:00:00Z","regions":[],"duration_seconds":60}]"#
        let calendar = try result("workout.calendar", service: "tally.workout", params)
        #expect(calendar["as_of"] as? String == "2026-06-30")
        #expect(calendar["month"] as? String == "2026-06")
        #expect(calendar["marked_days"] as? [String] == ["2026-06-29", "2026-06-30"])
        let today = try #require(
            (calendar["days"] as? [String: [String: Any]])?["2026-06-30"]?["activities"] as? [[String: Any]])
        #expect(today.map { $0["source_id"] as? String } == ["b"])
        #expect(calendar["has_later"] as? Bool == false)
        let streak = try #require(calendar["current_streak"] as? [String: Any])
        #expect(streak["days"] as? Int == 2)
        #expect(streak["end_date"] as? String == "2026-06-30")
        #expect(calendar["future_activities_ignored"] as? Int == 3)
    }

    @Test func aMonthAfterTheCurrentOneIsRefusedByTheCalendarAsByHistory() throws {
        for (method, service, extra) in [
            ("workout.calendar", "tally.workout", Self.workouts),
            ("history.month", "tally.history", #""goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#),
        ] {
            let response = try respond(method, service: service, #"\#(Self.noon),"month":"2026-07",\#(extra)"#)
            let error = try #require(response["error"] as? [String: Any], "\(method) answered \(response)")
            #expect(error["code"] as? String == "invalid_params")
            #expect((error["details"] as? [String: Any])?["field"] as? String == "params.month")
        }
    }

    @Test func aDailyChartAskedWithTodayHasNoFutureHour() throws {
        let goals = #""goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#
        let samples = #""samples":[{"start":"2026-06-14T22:30:00-07:00","steps":300}]"#
        let wholeDay = try result("history.dashboard", service: "tally.history", "\(Self.wholeDay),\(goals),\(samples)")
        let hours = try #require(wholeDay["hours"] as? [[String: Any]])
        #expect(hours.count == 24)
        #expect(hours.allSatisfy { $0["is_future"] as? Bool == false })
        #expect(hours[22]["steps"] as? Int == 300)
        #expect(wholeDay["samples_ignored"] as? Int == 0)
        // At noon the afternoon and evening are future, and the late sample has not been walked yet.
        let atNoon = try result("history.dashboard", service: "tally.history", "\(Self.noon),\(goals),\(samples)")
        let noonHours = try #require(atNoon["hours"] as? [[String: Any]])
        #expect(noonHours.filter { $0["is_future"] as? Bool == true }.count == 11)  // 13:00...23:00
        #expect(atNoon["samples_ignored"] as? Int == 1)
    }

    @Test(
        arguments: [
            ("history.months", "tally.history", ""),
            ("history.month", "tally.history", #","goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#),
            ("history.dashboard", "tally.history", #","goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#),
            ("streak.summary", "tally.streak", #","goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#),
            ("workout.calendar", "tally.workout", ""),
            ("workout.day", "tally.workout", #","date":"2026-06-14""#),
        ])
    func everyResultSaysAsOf(method: String, service: String, extra: String) throws {
        // 05:30Z on 06-15 is 22:30 on 06-14 in Los Angeles: today is the local date, not UTC's.
        let late = #""time_zone":"America/Los_Angeles","now":"2026-06-15T05:30:00Z""#
        #expect(try result(method, service: service, late + extra)["as_of"] as? String == "2026-06-14")
    }
}
