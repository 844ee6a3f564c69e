import TallyLoad
import Testing

/// How a run's outcomes become a summary: each request counted once, successes and errors apart, nothing
/// measured is `nil`.
@Suite struct LoadResultsTests {
    @Test func successesErrorsAndUnansweredAreCountedApart() {
        let results = LoadResults(labels: ["system.ping", "streak.summary@1y"])
        for _ in 0..<90 {
            results.sent(0)
            results.answered(0, microseconds: 10_000, errorCode: nil)
        }
        for _ in 0..<8 {
            results.sent(0)
            results.answered(0, microseconds: 50, errorCode: "overloaded")
        }
        results.sent(0)
        results.answered(0, microseconds: 70, errorCode: "unavailable")
        results.sent(0)
        results.unanswered(0)
        results.sent(1)
        results.answered(1, microseconds: 30_000, errorCode: nil)

        let snapshot = results.snapshot(elapsed: .seconds(2))
        let ping = snapshot.rows[0].summary
        #expect(snapshot.rows.map(\.label) == ["system.ping", "streak.summary@1y"])
        #expect(ping.sent == 100 && ping.succeeded == 90 && ping.failed == 9 && ping.unanswered == 1)
        #expect(ping.answered == 99)
        #expect(ping.errors == ["overloaded": 8, "unavailable": 1])
        #expect(ping.errorRate == 0.1, "failed and unanswered over all that ended")
        #expect(ping.successesPerSecond == 45, "errors are not throughput")
        #expect(ping.answersPerSecond == 49.5)
        // The fast error answers do not pull the successes' latencies down.
        let latency = try! #require(ping.latency)
        #expect(latency.count == 90 && latency.min >= 9_990 && latency.p50 >= 9_990 && latency.p50 <= 10_010)
        #expect(latency.standardDeviation < 10)
        let errorLatency = try! #require(ping.errorLatency)
        #expect(errorLatency.count == 9 && errorLatency.max <= 71)

        #expect(snapshot.all.sent == 101 && snapshot.all.succeeded == 91 && snapshot.all.failed == 9)
        #expect(snapshot.all.latency?.max ?? 0 >= 29_990, "all rows together")
        #expect(snapshot.rows[1].summary.errorLatency == nil && snapshot.rows[1].summary.errorRate == 0)
    }

    @Test func nothingMeasuredIsNilNotZero() {
        let results = LoadResults(labels: ["system.ping"])
        let empty = results.snapshot(elapsed: .seconds(1)).all
        #expect(empty.latency == nil && empty.errorLatency == nil && empty.errorRate == nil)
        results.sent(0)
        results.unanswered(0)
        let down = results.total(elapsed: .seconds(1))
        #expect(down.latency == nil, "no success, no latency")
        #expect(down.errorRate == 1, "a request without an answer is an error")
        #expect(down.successesPerSecond == 0)
    }

    @Test func latenciesBeyondAMinuteAreKept() {
        let results = LoadResults(labels: ["slow"])
        results.sent(0)
        results.answered(0, microseconds: 300_000_000, errorCode: nil)
        let latency = results.total(elapsed: .seconds(400)).latency
        #expect(latency?.max ?? 0 >= 299_000_000, "a 5-minute answer under a long --timeout")
    }
}
