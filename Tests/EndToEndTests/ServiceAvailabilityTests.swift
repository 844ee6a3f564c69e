import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// A request for a service no worker serves is answered `unavailable` at once, except while workers may still come:
/// just after the broker started (a restarted broker's workers come back within seconds), or just after the service's
/// last worker left.
@Suite(.realProcesses) struct ServiceAvailabilityTests {
    @Test func workersAreWaitedForAfterAStart() async throws {
        // A grace no busy machine outlasts: the worker below starts well within it, however slowly.
        let cluster = try await TallyCluster.start(workers: 0, brokerArguments: ["--service-grace", "60s"])
        let client = try makeClient([cluster.endpoint], timeout: .seconds(60), retries: 0)
        // Right after the start, a request waits for the worker that registers a moment later.
        let early = Task { try await client.ping(service: .history) }
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint, arguments: ["--service", "tally.history", "--concurrency", "1"])
        let pong = try await early.value
        #expect(pong.service == "tally.history")
        #expect(pid(of: pong.worker) == worker.processIdentifier)
        await client.stop()
        worker.terminate()
        await worker.waitForExit()
        await cluster.stop()
    }

    @Test func pastTheGraceANameNobodyServesIsAnsweredAtOnce() async throws {
        let cluster = try await TallyCluster.start(
            workers: 1, brokerArguments: ["--service-grace", "1s", "--queue-timeout", "30s"])
        let client = try makeClient([cluster.endpoint], timeout: .seconds(40), retries: 0)
        #expect(await waitForServices(client))
        let started = ContinuousClock.now
        // Past the grace (counted from the broker's start, which was before `started`).
        try await Task.sleep(until: started + .seconds(1) + .milliseconds(200))
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
        // At once, not after the 30 s queue timeout: 10 s of slack for a busy machine.
        let elapsed = clock.now - start
        #expect(elapsed < .seconds(10), "answered at once: \(elapsed)")
        await client.stop()
        await cluster.stop()
    }
}
