import Foundation
import Logging
import TallyProtocol
import TallyWorker
import Testing

/// One name per concept across methods (Protocol/README.md, *Glossary*): the same day has the same state in every
/// method that shows it, a streak's length is `days` wherever there is a streak, no day carries a flag beside its
/// state, and lists of the user's data may be left out everywhere.
@Suite struct VocabularyTests {
    static let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "vocabulary/1", version: "test"))
        .dispatcher(limits: RequestLimits())

    func result(_ method: String, service: String, _ params: String) throws -> [String: Any] {
        let body = #"{"version":1,"id":"v","method":"\#(method)","params":{\#(params)}}"#
        let reply = Self.dispatcher.respond(to: Array(body.utf8), service: service, logger: Logger(label: "test"))
        let response = try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any])
        return try #require(response["result"] as? [String: Any], "expected a result in \(response)")
    }

    static let frame = #""time_zone":"UTC","today":"2026-05-20""#
    static let goals = #""goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#
    /// Met, below, zero, nothing, met again (today), around 05-16...05-20.
    static let records =
        #""records":[{"date":"2026-05-16","steps":9000},{"date":"2026-05-17","steps":4000},{"date":"2026-05-18","steps":0},{"date":"2026-05-20","steps":8000}]"#

    @Test func aDayHasOneStateInEveryMethod() throws {
        let params = "\(Self.frame),\(Self.goals),\(Self.records)"
        let month = try result("history.month", service: "tally.history", params)
        let monthDays = try #require(month["days"] as? [[String: Any]])
        let byDate = Dictionary(uniqueKeysWithValues: monthDays.map { ($0["date"] as? String ?? "", $0) })
        let summary = try result("streak.summary", service: "tally.streak", params)
        let heatmapDays = try #require((summary["heatmap"] as? [String: Any])?["days"] as? [[String: Any]])
        var compared = 0
        for cell in heatmapDays {
            guard let date = cell["date"] as? String, let day = byDate[date] else { continue }
            #expect(cell["state"] as? String == day["state"] as? String, "\(date)")
            compared += 1
        }
        #expect(compared == 20)  // 05-01...05-20
        #expect(
            heatmapDays.suffix(5).map { $0["state"] as? String } == [
                "completed", "in_progress", "zero", "no_data", "completed",
            ])
        let today = try #require(summary["today"] as? [String: Any])
        #expect(today["state"] as? String == byDate["2026-05-20"]?["state"] as? String)
        let dashboard = try result("history.dashboard", service: "tally.history", params)
        #expect((dashboard["day"] as? [String: Any])?["state"] as? String == "completed")
    }

    @Test func noDayCarriesAFlagBesideItsState() throws {
        let params = "\(Self.frame),\(Self.goals),\(Self.records)"
        let month = try result("history.month", service: "tally.history", params)
        for day in month["days"] as? [[String: Any]] ?? [] {
            #expect(day["is_future"] == nil)
        }
        #expect((month["days"] as? [[String: Any]])?.last?["state"] as? String == "future")  // 05-31
        let summary = try result("streak.summary", service: "tally.streak", params)
        for cell in (summary["heatmap"] as? [String: Any])?["days"] as? [[String: Any]] ?? [] {
            #expect(cell["goal_reached"] == nil)
        }
        #expect((summary["today"] as? [String: Any])?["goal_met"] == nil)
    }

    @Test func aStreakIsCountedInDaysWithTheSameMembersEverywhere() throws {
        let steps = try result("streak.summary", service: "tally.streak", "\(Self.frame),\(Self.goals),\(Self.records)")
        let workout = #"{"id":"w","name":"Legs","completed_at":"2026-05-20T08:00:00Z","exercises":[]}"#
        let calendar = try result("workout.calendar", service: "tally.workout", "\(Self.frame),\"workouts\":[\(workout)]")
        let stepStreak = try #require(steps["current_streak"] as? [String: Any])
        let workoutStreak = try #require(calendar["current_streak"] as? [String: Any])
        #expect(steps["current"] == nil && steps["best"] == nil)
        #expect(stepStreak["days"] as? Int == 1)
        #expect(workoutStreak["days"] as? Int == 1)
        #expect((steps["best_streak"] as? [String: Any])?["days"] as? Int == 1)
        for member in ["days", "start_date", "end_date", "includes_today"] {
            #expect(stepStreak[member] != nil, "streak.summary current_streak.\(member)")
            #expect(workoutStreak[member] != nil, "workout.calendar current_streak.\(member)")
        }
        #expect(stepStreak["end_date"] as? String == "2026-05-20")
        #expect(workoutStreak["end_date"] as? String == "2026-05-20")
    }

    @Test(
        arguments: [
            ("history.months", "tally.history", frame),
            ("history.month", "tally.history", "\(frame),\(goals)"),
            ("history.dashboard", "tally.history", "\(frame),\(goals)"),
            ("streak.summary", "tally.streak", "\(frame),\(goals)"),
            ("workout.calendar", "tally.workout", frame),
            ("workout.day", "tally.workout", "\(frame),\"date\":\"2026-05-20\""),
        ])
    func aListOfTheUsersDataMayBeLeftOut(method: String, service: String, params: String) throws {
        _ = try result(method, service: service, params)
    }
}
