import Foundation
import TallyClient
import TallyTesting
import Testing
import ZeroMQ

/// Deadlines that pass while a request waits in the broker's queue or while a worker holds it: the answer is
/// `deadline_exceeded`, and the worker's metrics prove the method never ran for it.
@Suite(.realProcesses) struct DeadlineTests {
    @Test func requestsExpiredInTheQueueOrWhileHeldAreAnsweredDeadlineExceededWithoutBeingComputed() async throws {
        let workerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(workers: 0)
        // One slot, and every request held 500 ms before the dispatcher sees it: a busy, slow worker.
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: [
                "--service", "tally.history", "--concurrency", "1", "--simulated-latency", "500ms",
                "--http", workerHTTP,
            ],
            name: "slow")
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client, ["tally.history"]))

        let endpoint = cluster.endpoint
        let replies = try await onOwnThread { () throws -> [String: String] in
            let raw = try RawMDPClient(context: try Context(), endpoint: endpoint)
            // `hold` has no deadline and occupies the only slot; the four behind it expire while queued.
            try raw.request(service: "tally.history", body: RawMDPClient.ping(id: "hold"))
            for index in 0..<4 {
                let deadline = Date().addingTimeInterval(0.2)
                try raw.request(
                    service: "tally.history", body: RawMDPClient.ping(id: "queued-\(index)", deadline: deadline))
            }
            var outcomes: [String: String] = [:]
            while outcomes.count < 5, let frames = try raw.receive() {
                let reply = RawReply(frames: frames)
                outcomes[reply.id ?? "?"] = reply.outcome
            }
            // Alone now: taken at once, but its deadline passes during the 500 ms the worker holds it.
            try raw.request(
                service: "tally.history", body: RawMDPClient.ping(id: "held", deadline: Date().addingTimeInterval(0.2)))
            if let frames = try raw.receive() {
                let reply = RawReply(frames: frames)
                outcomes[reply.id ?? "?"] = reply.outcome
            }
            return outcomes
        }
        print("deadlines: \(replies.sorted { $0.key < $1.key })")
        #expect(replies["hold"] == "ok")
        for index in 0..<4 { #expect(replies["queued-\(index)"] == "deadline_exceeded", "\(replies)") }
        #expect(replies["held"] == "deadline_exceeded", "\(replies)")

        let metrics = try #require(await ProcessProbes.metrics(at: workerHTTP))
        let labels = #"service="tally.history",method="system.ping""#
        let expired = ProcessProbes.sample(
            #"tally_worker_requests_total{\#(labels),outcome="deadline_exceeded"}"#, in: metrics)
        let computed = ProcessProbes.sample("tally_worker_computations_total{\(labels)}", in: metrics)
        print("worker metrics: \(Int(expired)) answered deadline_exceeded, \(Int(computed)) computed")
        #expect(expired == 5)
        #expect(computed == 1, "only `hold` was computed; the expired requests never reached the method")

        await client.stop()
        worker.terminate()
        #expect(await worker.waitForExit() == 0)
        await cluster.stop()
    }
}
