import Foundation
import Logging
import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol
import TallyWorker
import Testing

/// `streak.summary` through the dispatcher: whole requests, goal tracking off, and every bad input with its code and
/// field.
@Suite struct StreakMethodTests {
    static let registry = MethodRegistry.allMethods(identity: WorkerIdentity(name: "streak-test/1", version: "test"))
    /// All methods with the default limits.
    static let dispatcher = registry.dispatcher(limits: RequestLimits())
    /// All methods with a list limit of 5, so that "over the limit" needs only a short request.
    static let strictDispatcher = registry.dispatcher(limits: RequestLimits(maxBodyBytes: 1 << 20, maxListElements: 5))

    func respond(_ params: String, dispatcher: RequestDispatcher = Self.dispatcher) throws -> [String: Any] {
        let body = #"{"version":1,"id":"s","method":"streak.summary","params":{\#(params)}}"#
        return try send(body, to: dispatcher)
    }

    func send(_ body: String, to dispatcher: RequestDispatcher = Self.dispatcher) throws -> [String: Any] {
        let reply = dispatcher.respond(to: Array(body.utf8), service: "tally.streak", logger: Logger(label: "test"))
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any])
    }

    func result(_ params: String) throws -> [String: Any] {
        let response = try respond(params)
        return try #require(response["result"] as? [String: Any], "expected a result in \(response)")
    }

    /// The error's code and the details a program acts on.
    struct Failure {
        var code: String?
        var field: String?
        var conflictsWith: String?
        var value: String?
        var problem: String?
    }

    func error(_ params: String) throws -> Failure {
        let response = try respond(params, dispatcher: Self.strictDispatcher)
        let error = try #require(response["error"] as? [String: Any], "expected an error in \(response)")
        let details = error["details"] as? [String: Any]
        return Failure(
            code: error["code"] as? String, field: details?["field"] as? String,
            conflictsWith: details?["conflicts_with"] as? String, value: details?["value"] as? String,
            problem: details?["problem"] as? String)
    }

    static let goal8000 = #""goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#
    static let berlin = #""time_zone":"Europe/Berlin","today":"2026-05-10""#

    @Test func wholeRequestLateEveningInLosAngeles() throws {
        // 05:30Z on 06-15 is 22:30 PDT on Sunday 06-14: today is 06-14 and the 06-15 record is future.
        // Goal 8,000 until 06-12, then 9,000. 06-10 has no record; 06-11...06-14 all meet their goals.
        let result = try result(
            #"""
            "time_zone":"America/Los_Angeles","now":"2026-06-15T05:30:00Z","week_starts_on":"monday",
            "goal_log":[{"effective_date":"2026-06-12","goal":9000},{"effective_date":"2026-01-01","goal":8000}],
            "records":[{"date":"2026-06-15","steps":20000},{"date":"2026-06-14","steps":9001},
                       {"date":"2026-06-13","steps":9000},{"date":"2026-06-12","steps":12000},
                       {"date":"2026-06-11","steps":8000},{"date":"2026-06-09","steps":0}]
            """#)
        #expect(result["status"] as? String == "active")
        #expect(result["as_of"] as? String == "2026-06-14")
        #expect(result["future_records_ignored"] as? Int == 1)

        let current = try #require(result["current_streak"] as? [String: Any])
        #expect(current["days"] as? Int == 4)
        #expect(current["start_date"] as? String == "2026-06-11")
        #expect(current["end_date"] as? String == "2026-06-14")
        #expect(current["total_steps"] as? Int == 38_001)  // 8,000 + 12,000 + 9,000 + 9,001
        #expect(current["average_steps"] as? Double == 9_500.25)
        #expect(current["includes_today"] as? Bool == true)

        let best = try #require(result["best_streak"] as? [String: Any])
        #expect(best["days"] as? Int == 4)
        #expect(best["is_current"] as? Bool == true)

        let today = try #require(result["today"] as? [String: Any])
        #expect(today["goal"] as? Int == 9_000)
        #expect(today["steps_to_go"] as? Int == 0)
        #expect(today["state"] as? String == "completed")
        #expect(today["locked_in_day"] as? Int == 4)

        let milestones = try #require(result["milestones"] as? [String: Any])
        #expect(milestones["highest_earned"] is NSNull)
        #expect(milestones["next_tier"] as? String == "bronze")
        #expect(milestones["days_to_next_tier"] as? Int == 3)

        // Window 05-16 (Saturday)...06-14 (Sunday); maximum 12,000 on 06-12.
        let heatmap = try #require(result["heatmap"] as? [String: Any])
        #expect(heatmap["start_date"] as? String == "2026-05-16")
        #expect(heatmap["max_steps"] as? Int == 12_000)
        let days = try #require(heatmap["days"] as? [[String: Any]])
        #expect(days.count == 30)
        #expect(days[24]["state"] as? String == "zero")  // 06-09
        #expect(days[24]["intensity"] is NSNull)
        #expect(days[25]["state"] as? String == "no_data")  // 06-10
        #expect(days[25]["steps"] is NSNull)
        #expect(days[26]["goal"] as? Int == 8_000)  // 06-11: exactly 8,000, 0.15 + 2/3 × 0.85 = 0.7167
        #expect(days[26]["intensity"] as? Double == 0.7167)
        #expect(days[26]["state"] as? String == "completed")
        #expect(days[26]["in_current_streak"] as? Bool == true)
        #expect(days[27]["goal"] as? Int == 9_000)  // 06-12
        #expect(days[27]["intensity"] as? Double == 1)
        #expect(days[29]["is_today"] as? Bool == true)
        let grid = try #require(heatmap["grid"] as? [String: Any])
        #expect(grid["leading_blanks"] as? Int == 5)  // Saturday in a Monday-first grid; 5 + 30 = 35
        #expect(grid["trailing_blanks"] as? Int == 0)
        #expect((grid["columns"] as? [String])?.first == "monday")
        let weeks = try #require(grid["weeks"] as? [[Any]])
        #expect(weeks.count == 5)
        #expect(weeks[0][5] as? String == "2026-05-16")
        #expect(weeks[0][4] is NSNull)
        #expect(weeks[4][6] as? String == "2026-06-14")
    }

    @Test func goalTrackingOffSaysSoAndNothingElse() throws {
        let result = try result(#"\#(Self.berlin),"goal_tracking_enabled":false,\#(Self.goal8000),\#(Self.records)"#)
        #expect(result["status"] as? String == "goal_tracking_off")
        #expect(result["as_of"] as? String == "2026-05-10")
        #expect(Set(result.keys) == ["status", "as_of"])
    }

    @Test func goalTrackingOffStillValidatesTheParams() throws {
        let negative = #""records":[{"date":"2026-05-09","steps":-1}]"#
        let failure = try error(#"\#(Self.berlin),"goal_tracking_enabled":false,\#(Self.goal8000),\#(negative)"#)
        #expect(failure.code == "invalid_params")
        #expect(failure.field == "params.records[0].steps")
    }

    @Test func noRecordsAtAllIsAnEmptySheetNotAnError() throws {
        let result = try result(#"\#(Self.berlin),\#(Self.goal8000),"records":[]"#)
        let current = try #require(result["current_streak"] as? [String: Any])
        #expect(current["days"] as? Int == 0)
        #expect(current["start_date"] is NSNull)
        #expect(current["average_steps"] is NSNull)
        #expect(current["total_steps"] as? Int == 0)
        let heatmap = try #require(result["heatmap"] as? [String: Any])
        #expect(heatmap["max_steps"] is NSNull)
    }

    @Test func paramsRoundTripThroughTheirOwnEncoding() throws {
        let today = try #require(LocalDate(year: 2026, month: 3, day: 8))
        let params = StreakSummary.Params(
            time: RequestTime(zone: .fixedOffset(minutes: -300), reference: .today(today)),
            goals: GoalParams(
                trackingEnabled: false, log: [GoalChange(effectiveDate: today.adding(days: -66), goal: 7_500)]),
            records: [DailyRecordParams(date: today.adding(days: -1), steps: 8_000, distanceMeters: 6_100.5)],
            weekStartsOn: .monday)
        let data = try TallyJSON.encoder().encode(params)
        let decoded = try TallyJSON.decoder().decode(StreakSummary.Params.self, from: data)
        #expect(decoded == params)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["week_starts_on"] as? String == "monday")
        #expect(object["utc_offset_minutes"] as? Int == -300)
        #expect(object["goal_tracking_enabled"] as? Bool == false)
    }

    static let records = #""records":[{"date":"2026-05-09","steps":9000}]"#
    /// One more record than the strict dispatcher's limit: 2026-05-01...2026-05-06.
    static let sixRecords =
        #""records":["# + (1...6).map { #"{"date":"2026-05-0\#($0)","steps":1}"# }.joined(separator: ",") + "]"
    /// One more goal change than the strict dispatcher's limit.
    static let sixGoals =
        #""goal_log":["# + (1...6).map { #"{"effective_date":"2026-01-0\#($0)","goal":1}"# }.joined(separator: ",")
        + "]"

    @Test(
        arguments: [
            // Wrong types.
            (#"\#(berlin),\#(goal8000),"records":{}"#, "invalid_params", "params.records"),
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-09","steps":"9000"}]"#, "invalid_params",
                "params.records[0].steps"
            ),
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-09","steps":9000.5}]"#, "invalid_params",
                "params.records[0].steps"
            ),
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":20260509,"steps":9000}]"#, "invalid_params",
                "params.records[0].date"
            ),
            (#"\#(berlin),"goal_log":{"goal":8000},\#(records)"#, "invalid_params", "params.goal_log"),
            (
                #"\#(berlin),"goal_log":[{"effective_date":"2026-01-01","goal":"8000"}],\#(records)"#, "invalid_params",
                "params.goal_log[0].goal"
            ),
            (
                #"\#(berlin),"goal_tracking_enabled":"yes",\#(goal8000),\#(records)"#, "invalid_params",
                "params.goal_tracking_enabled"
            ),
            (#"\#(berlin),\#(goal8000),\#(records),"week_starts_on":1"#, "invalid_params", "params.week_starts_on"),
            (
                #"\#(berlin),\#(goal8000),\#(records),"week_starts_on":"friday""#, "invalid_params",
                "params.week_starts_on"
            ),
            (#""time_zone":7,"today":"2026-05-10",\#(goal8000),\#(records)"#, "invalid_params", "params.time_zone"),
            // Missing fields.
            (#"\#(berlin),\#(records)"#, "invalid_params", "params.goal_log"),
            (#""today":"2026-05-10",\#(goal8000),\#(records)"#, "invalid_params", "params.time_zone"),
            (#""time_zone":"Europe/Berlin",\#(goal8000),\#(records)"#, "invalid_params", "params.now"),
            (#"\#(berlin),\#(goal8000),"records":[{"steps":9000}]"#, "invalid_params", "params.records[0].date"),
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-09"}]"#, "invalid_params",
                "params.records[0].steps"
            ),
            (
                #"\#(berlin),"goal_log":[{"effective_date":"2026-01-01"}],\#(records)"#, "invalid_params",
                "params.goal_log[0].goal"
            ),
            (#"\#(berlin),"goal_log":[],\#(records)"#, "invalid_params", "params.goal_log"),
            // Impossible dates and instants.
            (
                #""time_zone":"Europe/Berlin","today":"2026-02-30",\#(goal8000),\#(records)"#, "invalid_params",
                "params.today"
            ),
            (
                #""time_zone":"Europe/Berlin","now":"2026-05-10T25:00:00Z",\#(goal8000),\#(records)"#, "invalid_params",
                "params.now"
            ),
            (
                #""time_zone":"Europe/Berlin","now":"2026-05-10T10:00:00",\#(goal8000),\#(records)"#, "invalid_params",
                "params.now"
            ),
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-09","steps":1},{"date":"2025-02-29","steps":1}]"#,
                "invalid_params", "params.records[1].date"
            ),
            (
                #"\#(berlin),"goal_log":[{"effective_date":"2026-13-01","goal":8000}],\#(records)"#,
                "invalid_params", "params.goal_log[0].effective_date"
            ),
            (#""time_zone":"UTC","today":"0001-01-29",\#(goal8000),\#(records)"#, "invalid_params", "params.today"),
            (
                #""time_zone":"UTC","now":"0001-01-02T00:00:00Z",\#(goal8000),\#(records)"#, "invalid_params",
                "params.now"
            ),
            // Zones.
            (
                #""time_zone":"Mars/Olympus_Mons","today":"2026-05-10",\#(goal8000),\#(records)"#, "invalid_params",
                "params.time_zone"
            ),
            (
                #""time_zone":"EST5EDT_NOT","today":"2026-05-10",\#(goal8000),\#(records)"#, "invalid_params",
                "params.time_zone"
            ),
            (
                #""utc_offset_minutes":1200,"today":"2026-05-10",\#(goal8000),\#(records)"#, "invalid_params",
                "params.utc_offset_minutes"
            ),
            // Out-of-range numbers.
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-09","steps":-1}]"#, "invalid_params",
                "params.records[0].steps"
            ),
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-09","steps":1000001}]"#, "invalid_params",
                "params.records[0].steps"
            ),
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-09","steps":1e300}]"#, "invalid_params",
                "params.records[0].steps"
            ),
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-09","steps":9000,"distance_m":-2}]"#,
                "invalid_params", "params.records[0].distance_m"
            ),
            (
                #"\#(berlin),"goal_log":[{"effective_date":"2026-01-01","goal":0}],\#(records)"#, "invalid_params",
                "params.goal_log[0].goal"
            ),
            (
                #"\#(berlin),"goal_log":[{"effective_date":"2026-01-01","goal":8000},{"effective_date":"2026-02-01","goal":-5}],\#(records)"#,
                "invalid_params", "params.goal_log[1].goal"
            ),
            (
                #"\#(berlin),"goal_log":[{"effective_date":"2026-01-01","goal":1000001}],\#(records)"#,
                "invalid_params", "params.goal_log[0].goal"
            ),
            // Lists over the limit (5 in this suite).
            (#"\#(berlin),\#(goal8000),\#(sixRecords)"#, "payload_too_large", "params.records"),
            (#"\#(berlin),\#(sixGoals),\#(records)"#, "payload_too_large", "params.goal_log"),
        ] as [(String, String, String)])
    func badInputGetsAPreciseError(params: String, code: String, field: String) throws {
        let failure = try error(params)
        #expect(failure.code == code)
        #expect(failure.field == field)
        #expect(failure.conflictsWith == nil)
    }

    @Test(
        arguments: [
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-08","steps":9000},{"date":"2026-05-09","steps":9000},{"date":"2026-05-08","steps":1200}]"#,
                "params.records[2].date", "params.records[0].date", "2026-05-08"
            ),
            (
                #"\#(berlin),"goal_log":[{"effective_date":"2026-03-01","goal":9000},{"effective_date":"2026-01-01","goal":8000},{"effective_date":"2026-03-01","goal":7000}],\#(records)"#,
                "params.goal_log[2].effective_date", "params.goal_log[0].effective_date", "2026-03-01"
            ),
            // Two members that exclude each other: no single value is at fault.
            (
                #""time_zone":"UTC","utc_offset_minutes":60,"today":"2026-05-10",\#(goal8000),\#(records)"#,
                "params.utc_offset_minutes", "params.time_zone", nil
            ),
            (
                #""time_zone":"UTC","now":"2026-05-10T10:00:00Z","today":"2026-05-10",\#(goal8000),\#(records)"#,
                "params.today", "params.now", nil
            ),
        ] as [(String, String, String, String?)])
    func conflictsNameBothPlacesAndTheDuplicatedValue(
        params: String, field: String, conflictsWith: String, value: String?
    ) throws {
        let failure = try error(params)
        #expect(failure.code == "invalid_params")
        #expect(failure.field == field)
        #expect(failure.conflictsWith == conflictsWith)
        #expect(failure.value == value)
    }

    /// A member left out is "required"; only a member sent as null is "not null".
    @Test(
        arguments: [
            (#"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-09"}]"#, "params.records[0].steps", "is required"),
            (
                #"\#(berlin),"goal_log":[{"effective_date":"2026-01-01"}],\#(records)"#, "params.goal_log[0].goal",
                "is required"
            ),
            (#"\#(berlin),\#(goal8000),"records":[{"steps":9000}]"#, "params.records[0].date", "is required"),
            (
                #"\#(berlin),\#(goal8000),"records":[{"date":"2026-05-09","steps":null}]"#, "params.records[0].steps",
                "must be an integer, not null"
            ),
        ] as [(String, String, String)])
    func aMissingMemberIsRequiredNotNull(params: String, field: String, problem: String) throws {
        let failure = try error(params)
        #expect(failure.code == "invalid_params")
        #expect(failure.field == field)
        #expect(failure.problem == problem)
        #expect(failure.value == nil)
    }

    @Test func tenYearsOfRecordsAreServedWithTheDefaultLimits() throws {
        // 3,650 days ending 2026-06-30 (2016-07-03...2026-06-30), every one at 10,000 of a 10,000 goal.
        let today = LocalDate(year: 2026, month: 6, day: 30)!
        let records = (0..<3_650).map { #"{"date":"\#(today.adding(days: -$0))","steps":10000}"# }
        let body = #"""
            {"version":1,"id":"big","method":"streak.summary","params":{"time_zone":"UTC","today":"2026-06-30",
             "goal_log":[{"effective_date":"2016-01-01","goal":10000}],"records":[\#(records.joined(separator: ","))]}}
            """#
        let response = try send(body)
        let current = try #require((response["result"] as? [String: Any])?["current_streak"] as? [String: Any])
        #expect(current["days"] as? Int == 3_650)
        #expect(current["start_date"] as? String == "2016-07-03")
        #expect(current["total_steps"] as? Int == 36_500_000)
        let milestones = try #require((response["result"] as? [String: Any])?["milestones"] as? [String: Any])
        #expect(milestones["highest_earned"] as? String == "diamond")
        #expect(milestones["next_tier"] is NSNull)
        #expect(milestones["days_to_next_tier"] is NSNull)
    }
}
