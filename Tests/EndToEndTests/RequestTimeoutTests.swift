import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// A worker that holds a request past the broker's `--request-timeout` (here: one that takes 8 s per request
/// against a 1 s limit): the client gets `unavailable` once, the worker is disconnected, reconnects by itself and
/// serves again.
@Suite(.realProcesses) struct RequestTimeoutTests {
    @Test func aWorkerHoldingARequestTooLongIsCutOffAndComesBack() async throws {
        let cluster = try await TallyCluster.start(workers: 0, brokerArguments: ["--request-timeout", "1s"])
        let slow = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: ["--service", "tally.history", "--concurrency", "1", "--simulated-latency", "8s"], name: "slow")
        let client = try makeClient([cluster.endpoint], timeout: .seconds(10), retries: 0)
        #expect(await waitForServices(client, ["tally.history"]))

        let start = ContinuousClock.now
        do {
            _ = try await client.ping(service: .history)
            Issue.record("a request held past the request timeout must be answered unavailable")
        } catch {
            #expect(error.code == .unavailable, "\(error)")
        }
        // Answered at the 1 s limit, not after the 8 s of work: 5 s leaves a busy machine 4 s of slack either way.
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(5), "answered at the request timeout, not after the work: \(elapsed)")
        // The worker was disconnected, reconnects and registers again; with a longer limit it would serve.
        #expect(await waitForServices(client, ["tally.history"]))
        #expect(slow.isRunning)
        await client.stop()
        await cluster.stop()
    }
}
