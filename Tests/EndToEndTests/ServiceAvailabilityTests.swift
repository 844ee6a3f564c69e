import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// A request for a service no worker serves is answered `unavailable` at once, except while workers may still come:
/// just after the broker started (a restarted broker's workers come back within seconds), or just after the service's
/// last worker left.
@Suite(.serialized) struct ServiceAvailabilityTests {
    @Test func workersAreWaitedForAfterAStartButNotForANameNobodyServes() async throws {
        // A grace long enough for a worker process to start on a loaded machine (6 s was not, twice, with two
        // compilers beside the suite on two cores).
        let grace = Duration.seconds(10)
        let started = ContinuousClock.now
        let cluster = try await TallyCluster.start(workers: 0, brokerArguments: ["--service-grace", "10s"])
        let client = try makeClient([cluster.endpoint], timeout: .seconds(15), retries: 0)
        // Right after the start, a request waits for the worker that registers a moment later.
        let early = Task { try await client.ping(service: .history) }
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint, arguments: ["--service", "tally.history", "--concurrency", "1"])
        let pong = try await early.value
        #expect(pong.service == "tally.history")

        // Past the grace, a service nobody serves is answered at once, not after the 10 s queue timeout.
        try await Task.sleep(until: started + grace + .milliseconds(500))
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await client.ping(service: TallyService(rawValue: "tally.nobody"))
            Issue.record("a service nobody serves cannot answer")
        } catch {
            #expect(error.isFromServer, "the broker's answer, not a local timeout: \(error)")
            #expect(error.code == .unavailable)
            #expect(error.message.contains("no tally.nobody worker"), "\(error.message)")
        }
        let elapsed = clock.now - start
        #expect(elapsed < .seconds(2), "answered at once: \(elapsed)")
        await client.stop()
        worker.terminate()
        await worker.waitForExit()
        await cluster.stop()
    }
}
