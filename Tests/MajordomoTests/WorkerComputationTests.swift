import Foundation
import Majordomo
import TallyTesting
import Testing
import ZeroMQ

/// Requests computed on the worker's I/O threads, and roles that have stopped answering at once.
@Suite struct WorkerComputationTests {
    /// Replies with the connection number and the name of the thread that computed the request.
    static func identifyingWorker(endpoint: String, concurrency: Int, ioThreads: Int) throws -> MajordomoWorker {
        var configuration = Fast.worker([endpoint], concurrency: concurrency)
        configuration.ioThreads = ioThreads
        let worker = try MajordomoWorker(
            configuration: configuration, logger: Fast.logger,
            computation: .onIOThread { request in
                // Long enough that requests overlap and every connection gets some.
                Thread.sleep(forTimeInterval: 0.002)
                return request.body + [Frame(String(request.connection)), Frame(Thread.current.name ?? "?")]
            })
        try worker.start()
        return worker
    }

    @Test func requestsComputeOnEveryIOThreadAndConnectionsAreNumberedAcrossThem() async throws {
        let (broker, endpoint) = try startBroker()
        let worker = try Self.identifyingWorker(endpoint: endpoint, concurrency: 4, ioThreads: 2)
        let client = try echoClient([endpoint])
        #expect(await eventually { await broker.snapshot().workers == 4 })
        #expect(await eventually { await worker.status().services["echo"]?.registered == 4 })
        let status = await worker.status()
        #expect(status.services["echo"]?.connected == 4)
        #expect(status.isReady)

        let connections = Tally()
        let threads = Tally()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<16 {
                group.addTask {
                    for n in 0..<15 {
                        let key = "l\(lane)-\(n)"
                        let reply = try await client.request(
                            service: "echo", body: [Frame(key)], key: key, timeout: .seconds(10))
                        #expect(reply.body.count == 3)
                        #expect(reply.body.first == Frame(key))
                        connections.add(reply.body[1].text ?? "?")
                        threads.add(reply.body[2].text ?? "?")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(Set(connections.values.keys) == ["0", "1", "2", "3"])
        #expect(Set(threads.values.keys) == ["mdp-worker-0", "mdp-worker-1"])
        await client.stop()
        await worker.stop()
        await broker.stop()
    }

    @Test func moreThreadsThanConnectionsAreNotStarted() async throws {
        let (broker, endpoint) = try startBroker()
        let worker = try Self.identifyingWorker(endpoint: endpoint, concurrency: 1, ioThreads: 8)
        let client = try echoClient([endpoint])
        #expect(await eventually { await broker.snapshot().workers == 1 })
        let reply = try await client.request(service: "echo", body: ["k"], key: "k", timeout: .seconds(5))
        #expect(reply.body.dropFirst().map(\.text) == ["0", "mdp-worker-0"])
        await client.stop()
        await worker.stop()
        await broker.stop()
    }

    @Test func stoppedClientWorkerAndBrokerAnswerAtOnceInsteadOfWaitingForever() async throws {
        let (broker, endpoint) = try startBroker()
        let worker = try Self.identifyingWorker(endpoint: endpoint, concurrency: 2, ioThreads: 2)
        let client = try echoClient([endpoint])
        #expect(await eventually { await broker.snapshot().workers == 2 })

        await client.stop()
        await #expect(throws: MajordomoClientError.stopped) {
            try await client.request(service: "echo", body: ["late"], key: "late", timeout: .seconds(30))
        }
        await worker.stop()
        let status = await worker.status()
        #expect(!status.isReady)
        await broker.stop()
        let snapshot = await broker.snapshot()
        #expect(snapshot.workers == 0)
        #expect(snapshot.isDraining)
    }
}
