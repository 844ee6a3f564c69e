import Foundation
import Logging
import TallyCalendar
import TallyProtocol
import TallyWorker
import Testing

/// Through the dispatcher, an instant a request gives is its text's own to the last digit: `now` a fraction short of
/// midnight is still today (history, streak, workout), and so is a sample or a workout completed then. As a
/// `Double` of seconds each rounded into the next day, in the years 1 and 9999 with six digits and today with a
/// nanosecond clock's nine.
@Suite struct ExactInstantTests {
    static let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "test", version: "0")).dispatcher(
        limits: RequestLimits())

    static func result(_ service: String, _ method: String, _ params: String) throws -> [String: Any] {
        let body = #"{"version":1,"id":"t","method":"\#(method)","params":{\#(params)}}"#
        let reply = dispatcher.respond(to: Array(body.utf8), service: service, logger: Logger(label: "test"))
        let response = try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any])
        return try #require(response["result"] as? [String: Any], "expected a result in \(response)")
    }

    /// A date, and an instant a fraction short of its end in a zone (by the zone's offset then, as the text writes
    /// it), or in UTC.
    struct Edge: Sendable, CustomTestStringConvertible {
        let date: String
        let zone: String
        let instant: String

        var testDescription: String { "\(instant) in \(zone)" }

        /// The instant's own millisecond, as a result writes it at the same offset.
        var written: String {
            let cut = instant.firstIndex(of: ".")!
            let rest = instant[cut...].drop { $0 != "Z" && $0 != "+" && $0 != "-" }
            return String(instant[..<cut]) + String(instant[cut...].prefix(4)) + rest
        }
    }

    static let edges: [Edge] = [
        Edge(date: "0001-02-04", zone: "UTC", instant: "0001-02-04T23:59:59.999999Z"),
        Edge(date: "9999-02-04", zone: "UTC", instant: "9999-02-04T23:59:59.99999Z"),
        Edge(date: "2026-02-04", zone: "UTC", instant: "2026-02-04T23:59:59.999999999Z"),
        Edge(date: "2026-02-04", zone: "Asia/Tokyo", instant: "2026-02-04T23:59:59.999999999+09:00"),
        Edge(date: "2026-10-25", zone: "Europe/Berlin", instant: "2026-10-25T23:59:59.9999999+01:00"),
    ]

    @Test(arguments: edges)
    func nowAFractionBeforeMidnightIsStillToday(_ edge: Edge) throws {
        let time = #""time_zone":"\#(edge.zone)","now":"\#(edge.instant)""#
        let goal = #""goal_log":[{"effective_date":"0001-01-01","goal":8000}]"#
        let months = try Self.result("tally.history", "history.months", #"\#(time),"records":[]"#)
        #expect(months["as_of"] as? String == edge.date)
        let streak = try Self.result("tally.streak", "streak.summary", #"\#(time),\#(goal),"records":[]"#)
        #expect(streak["as_of"] as? String == edge.date)
        let day = try Self.result("tally.workout", "workout.day", #"\#(time),"date":"\#(edge.date)","workouts":[]"#)
        #expect(day["as_of"] as? String == edge.date)
    }

    @Test(arguments: edges)
    func aSampleAFractionBeforeMidnightIsCountedInTheDaysLastHour(_ edge: Edge) throws {
        let params =
            #""time_zone":"\#(edge.zone)","today":"\#(edge.date)","date":"\#(edge.date)","#
            + #""goal_log":[{"effective_date":"0001-01-01","goal":8000}],"records":[],"#
            + #""samples":[{"start":"\#(edge.instant)","steps":7}]"#
        let dashboard = try Self.result("tally.history", "history.dashboard", params)
        #expect(dashboard["samples_ignored"] as? Int == 0, "\(dashboard)")
        let hours = try #require(dashboard["hours"] as? [[String: Any]])
        let last = try #require(hours.last)
        #expect(last["steps"] as? Int == 7, "the day's last hour holds it: \(last)")
        #expect((last["start"] as? String)?.hasPrefix("\(edge.date)T23:") == true, "\(last)")
    }

    @Test(arguments: edges)
    func aWorkoutCompletedAFractionBeforeMidnightIsOnItsDateAndWrittenToItsMillisecond(_ edge: Edge) throws {
        let workout =
            #"{"id":"w1","name":"Late","completed_at":"\#(edge.instant)","exercises":[]}"#
        let day = try Self.result(
            "tally.workout", "workout.day",
            #""time_zone":"\#(edge.zone)","today":"\#(edge.date)","date":"\#(edge.date)","workouts":[\#(workout)]"#)
        let shown = try #require(day["workouts"] as? [[String: Any]])
        #expect(shown.count == 1, "the workout is on \(edge.date): \(day)")
        #expect(shown.first?["completed_at"] as? String == edge.written)
    }
}
