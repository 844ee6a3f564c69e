import Foundation
import Logging
import TallyCalendar
import TallyCore
import TallyProtocol
import TallyWorker
import Testing

/// Rounded figures agree with the facts beside them: a figure is whole only when the value is, so that a client
/// comparing progress with 1, an intensity with 1, an average with a goal or a weight with 0 (bodyweight) reaches
/// the service's own verdict. The rule itself, then every rounded figure of every method at its boundary.
@Suite struct RoundingBoundaryTests {
    @Test(
        arguments: [
            (0.99996, 4, 0.9999),  // plain rounding: 1
            (0.00004, 4, 0.0001),  // plain rounding: 0
            (0.99994, 4, 0.9999),
            (1.0, 4, 1.0),
            (0.0, 4, 0.0),
            (2.0 / 3.0, 4, 0.6667),
            (0.5, 4, 0.5),
            (7999.996, 2, 7999.99),  // plain rounding: 8000
            (8000.001, 2, 8000.01),  // plain rounding: 8000
            (8000.0, 2, 8000.0),
            (0.004, 2, 0.01),  // plain rounding: 0, which reads as bodyweight
            (3615.5811, 2, 3615.58),
            (0.1 + 0.2 + 0.7, 2, 1.0),  // 1.0000000000000002: floating-point noise, whole
            (1 * 22.7 + 9 * 22.7, 2, 227.0),  // 226.99999999999997: a whole volume stays whole
            (999_999_999.996, 2, 999_999_999.99),
        ] as [(Double, Int, Double)])
    func aFigureIsWholeOnlyWhenTheValueIs(value: Double, places: Int, expected: Double) {
        #expect(FigureRounding.rounded(value, places: places) == expected)
    }

    @Test func progressIsOneExactlyWhenTheGoalIsMetAndZeroExactlyWithoutSteps() {
        for goal in [1, 2, 3, 7, 9_999, 10_000, 99_999, 100_000, 654_321, 1_000_000] {
            let near = Set([0, 1, 2, goal / 2, goal - 2, goal - 1, goal, goal + 1].filter { $0 >= 0 })
            for steps in near {
                let progress = FigureRounding.rounded(min(Double(steps) / Double(goal), 1))
                #expect((progress == 1) == (steps >= goal), "\(steps) of \(goal): \(progress)")
                #expect((progress == 0) == (steps == 0), "\(steps) of \(goal): \(progress)")
            }
        }
    }

    // MARK: Every rounded figure, through the dispatcher

    static let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "rounding/1", version: "test"))
        .dispatcher(limits: RequestLimits())

    func result(_ method: String, service: String, _ params: String) throws -> [String: Any] {
        let body = #"{"version":1,"id":"r","method":"\#(method)","params":{\#(params)}}"#
        let reply = Self.dispatcher.respond(to: Array(body.utf8), service: service, logger: Logger(label: "test"))
        let response = try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any])
        return try #require(response["result"] as? [String: Any], "expected a result in \(response)")
    }

    static let goal100k = #""goal_log":[{"effective_date":"2026-01-01","goal":100000}]"#
    /// 99,996 of 100,000 on the 9th, 100,000 on the 10th, 1 step on the 11th; today is the 11th.
    static let boundaryRecords =
        #""records":[{"date":"2026-05-09","steps":99996},{"date":"2026-05-10","steps":100000},{"date":"2026-05-11","steps":1}]"#
    static let today = #""time_zone":"UTC","today":"2026-05-11""#

    @Test func historyMonthJustBelowTheGoalIsInProgressAndBelowOne() throws {
        let month = try result(
            "history.month", service: "tally.history", "\(Self.today),\(Self.goal100k),\(Self.boundaryRecords)")
        let days = try #require(month["days"] as? [[String: Any]])
        let below = days[8]
        #expect(below["date"] as? String == "2026-05-09")
        #expect(below["state"] as? String == "in_progress")
        #expect(below["progress"] as? Double == 0.9999)
        #expect(below["intensity"] as? Double == 0.9999)
        let met = days[9]
        #expect(met["state"] as? String == "completed")
        #expect(met["progress"] as? Double == 1)
        #expect(met["intensity"] as? Double == 1)
        let oneStep = days[10]
        #expect(oneStep["state"] as? String == "in_progress")
        #expect(oneStep["progress"] as? Double == 0.0001)
        #expect(month["completed_days"] as? Int == 1)
    }

    @Test func dashboardCardJustBelowTheGoalAsksForNoReview() throws {
        let below = #""records":[{"date":"2026-05-11","steps":99996}]"#
        let dashboard = try result(
            "history.dashboard", service: "tally.history", "\(Self.today),\(Self.goal100k),\(below)")
        let day = try #require(dashboard["day"] as? [String: Any])
        #expect(day["progress"] as? Double == 0.9999)
        #expect(day["state"] as? String == "in_progress")
        #expect(dashboard["review_prompt_due"] as? Bool == false)
    }

    @Test func streakTodayAndHeatmapJustBelowTheirBoundaries() throws {
        // Today 99,996 of 100,000: not met. The heatmap's best day is 100,000 (intensity 1); 99,996 is
        // 0.15 + 0.99996 × 0.85 = 0.999966, which plain rounding makes 1.
        let records = #""records":[{"date":"2026-05-10","steps":100000},{"date":"2026-05-11","steps":99996}]"#
        let summary = try result(
            "streak.summary", service: "tally.streak", "\(Self.today),\(Self.goal100k),\(records)")
        let today = try #require(summary["today"] as? [String: Any])
        #expect(today["progress"] as? Double == 0.9999)
        #expect(today["steps_to_go"] as? Int == 4)
        let days = try #require((summary["heatmap"] as? [String: Any])?["days"] as? [[String: Any]])
        #expect(days[28]["intensity"] as? Double == 1)
        #expect(days[29]["intensity"] as? Double == 0.9999)
        #expect(days[28]["state"] as? String == "completed")
        #expect(days[29]["state"] as? String == "in_progress")
        #expect(today["state"] as? String == "in_progress")
    }

    @Test func anAverageJustBelowTheGoalStaysBelowIt() throws {
        // 249 days of 8,000 and one of 7,999 against a goal of 7,999: every day counts, the average is
        // 1,999,999 / 250 = 7,999.996, which plain rounding makes 8,000.00.
        let last = try #require(LocalDate(year: 2026, month: 5, day: 11))
        let records = (0..<250).map { #"{"date":"\#(last.adding(days: -$0))","steps":\#($0 == 100 ? 7999 : 8000)}"# }
        let summary = try result(
            "streak.summary", service: "tally.streak",
            #"\#(Self.today),"goal_log":[{"effective_date":"2025-01-01","goal":7999}],"records":[\#(records.joined(separator: ","))]"#
        )
        let current = try #require(summary["current_streak"] as? [String: Any])
        #expect(current["days"] as? Int == 250)
        #expect(current["total_steps"] as? Int == 1_999_999)
        #expect(current["average_steps"] as? Double == 7999.99)
    }

    @Test func aWeightTooLightToShowIsNotBodyweight() throws {
        let workout =
            #"{"id":"w","name":"Rehab","completed_at":"2026-05-10T10:00:00Z","exercises":[{"name":"Finger lift","sets":[{"reps":1,"weight":0.004,"unit":"kg"}]}]}"#
        let day = try result(
            "workout.day", service: "tally.workout", #"\#(Self.today),"date":"2026-05-10","workouts":[\#(workout)]"#)
        let shown = try #require((day["workouts"] as? [[String: Any]])?.first)
        let exercise = try #require((shown["exercises"] as? [[String: Any]])?.first)
        #expect(exercise["weights"] as? [Double] == [0.01])
        #expect(exercise["bodyweight_set_count"] as? Int == 0)
        #expect(exercise["volume"] as? Double == 0.01)
        #expect(shown["total_volume"] as? Double == 0.01)
    }
}
