import Foundation
import TallyClient
import TallyTesting
import Testing

/// A rolling restart costs nothing: a worker stopped with SIGTERM under load finishes what it holds, and a request
/// that crossed its goodbye on the wire goes to another worker without spending one of its attempts.
@Suite(.realProcesses) struct GracefulDrainTests {
    @Test func aWorkerStoppedUnderLoadLosesNothingAndSpendsNoAttempt() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 0, brokerArguments: ["--http", brokerHTTP], logLevel: "info")
        let arguments = ["--service", "tally.history", "--concurrency", "4", "--simulated-latency", "30ms"]
        let leaving = try await TallyCluster.startWorker(endpoint: cluster.endpoint, arguments: arguments)
        let staying = try await TallyCluster.startWorker(endpoint: cluster.endpoint, arguments: arguments)
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client, ["tally.history"]))

        // More in flight than the 8 connections hold: a queue always waits, so each reply of the leaving worker is
        // followed at once by a new request, which crosses its goodbye on the wire.
        let load = ExactlyOnceLoad(endpoint: cluster.endpoint, inFlight: 16, duration: .seconds(3))
        let loadRun = Task { try await onOwnThread { try load.run() } }
        // Stopped once the load is under way: both workers full, a queue waiting behind them.
        #expect(await eventually { load.progress.answered >= load.inFlight })
        leaving.terminate()
        let status = await leaving.waitForExit()
        let ledger = try await loadRun.value
        let metrics = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
        let requeued = ProcessProbes.sample(#"tally_broker_requeues_total{service="tally.history"}"#, in: metrics)
        let returned = ProcessProbes.sample(
            #"tally_broker_requests_returned_total{service="tally.history"}"#, in: metrics)
        print(
            "graceful drain under load: \(ledger); worker exit \(status ?? -1); re-queued \(requeued), returned \(returned)"
        )

        #expect(status == 0)
        #expect(ledger.unanswered == 0 && ledger.duplicates == 0 && ledger.strangers == 0, "\(ledger)")
        #expect(Set(ledger.outcomes.keys) == ["ok"], "no client saw an error: \(ledger)")
        #expect(returned > 0, "requests crossed the goodbye (the case this test is about)")
        #expect(requeued == 0, "a clean goodbye is not a lost worker")
        #expect(!cluster.broker.errorOutput.contains("losing its worker"))
        await client.stop()
        staying.terminate()
        await staying.waitForExit()
        await cluster.stop()
    }
}
