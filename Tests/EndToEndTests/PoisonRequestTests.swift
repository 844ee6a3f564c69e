import Foundation
import TallyClient
import TallyTesting
import Testing
import ZeroMQ

/// A request that kills the worker computing it takes two workers with it, not `--max-attempts` of them, and the
/// requests that shared a worker with it survive: the broker retries a request whose worker vanished once, on a
/// worker process of its own, and answers it `internal` when that one vanishes too.
@Suite(.realProcesses) struct PoisonRequestTests {
    /// Debug builds of `tally-worker` serve `test.crash` (it traps) when this is set; release builds never do.
    static let faults = ["TALLY_TEST_FAULTS": "crash-method", "SWIFT_BACKTRACE": "enable=no"]

    @Test func aRequestThatKillsItsWorkerIsAnsweredAfterTwoDeathsAndHarmsNoOtherRequest() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(workers: 0, brokerArguments: ["--http", brokerHTTP])
        var workers: [ManagedProcess] = []
        for index in 0..<3 {
            workers.append(
                try await TallyCluster.startWorker(
                    endpoint: cluster.endpoint, arguments: ["--concurrency", "2", "--simulated-latency", "20ms"],
                    name: "worker-\(index)", environment: Self.faults))
        }
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client))

        let load = ExactlyOnceLoad(endpoint: cluster.endpoint, inFlight: 6, duration: .seconds(4))
        let loadRun = Task { try await onOwnThread { try load.run() } }
        // Sent once the load is under way: the poison request shares its workers with requests in flight.
        #expect(await eventually { load.progress.answered >= load.inFlight })
        let poison = try await onOwnThread { () throws -> RawReply? in
            let raw = try RawMDPClient(context: try Context(), endpoint: cluster.endpoint, receiveTimeout: .seconds(20))
            try raw.request(service: "tally.history", body: #"{"version":1,"id":"poison-1","method":"test.crash"}"#)
            return try raw.receive().map(RawReply.init)
        }
        let ledger = try await loadRun.value
        let survivors = workers.filter(\.isRunning).count
        let metrics = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
        let poisoned = ProcessProbes.sample(
            #"tally_broker_poison_requests_total{service="tally.history"}"#, in: metrics)
        let answer = poison.map { String(decoding: $0.body, as: UTF8.self) } ?? "no answer"
        print("poison request: \(answer); \(survivors) of 3 workers alive; load beside it: \(ledger)")

        #expect(poison?.id == "poison-1" && poison?.errorCode == "internal", "\(answer)")
        #expect(answer.contains("died while computing it"))
        #expect(survivors == 1, "two workers died, not three")
        #expect(poisoned == 1)
        let log = cluster.broker.errorOutput
        #expect(log.contains("id=poison-1 method=test.crash"), "the broker names the request it gave up on")
        #expect(ledger.unanswered == 0 && ledger.duplicates == 0 && ledger.strangers == 0, "\(ledger)")
        #expect(Set(ledger.outcomes.keys) == ["ok"], "requests beside the poison one survive it: \(ledger)")
        await client.stop()
        for worker in workers { worker.terminate() }
        for worker in workers { await worker.waitForExit() }
        await cluster.stop()
    }
}
