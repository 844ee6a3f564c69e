import TallyLoad
import TallyTesting
import Testing

/// The raw echo that every load run is measured against, on real sockets: a bounded run answers every message
/// it sends, and its report counts them as successes with latencies.
@Suite(.realProcesses) struct RawEchoBaselineTests {
    @Test func aBoundedRunAnswersEveryMessage() async throws {
        let summary = try await onOwnThread {
            try RawEchoBaseline(bodySize: 100, inFlight: 10, requests: 500, duration: nil).run()
        }
        #expect(summary.sent == 500 && summary.answered == 500 && summary.succeeded == 500)
        #expect(summary.failed == 0 && summary.unanswered == 0 && summary.errors.isEmpty)
        #expect((summary.latency?.count ?? 0) == 500)
    }
}
