import Foundation
import Majordomo
import Synchronization
import TallyTesting
import Testing
import ZeroMQ

/// Requests computed on the worker's I/O threads, and roles that have stopped answering at once.
@Suite(.realProcesses) struct WorkerComputationTests {
    /// Replies with the connection number and the name of the thread that computed the request.
    static func identifyingWorker(endpoint: String, concurrency: Int, ioThreads: Int) throws -> MajordomoWorker {
        var configuration = InProcess.worker([endpoint], concurrency: concurrency)
        configuration.ioThreads = ioThreads
        let worker = try MajordomoWorker(
            configuration: configuration, logger: InProcess.logger,
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
                            service: "echo", body: [Frame(key)], key: key, timeout: InProcess.replyTimeout)
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

    /// One I/O thread with two connections: one flooded by a closed loop of requests (each 2 ms of computation, so
    /// that a reply brings the next request before the last one is read), one asked once. The quiet connection is
    /// served within a turn of the loop, not after the flood: a thread reads at most a connection's credit's worth
    /// each turn (before, the flooded socket never ran dry and the quiet one, its heartbeats included, starved
    /// until the flood ended; in production, until the broker took it for dead).
    @Test func aFloodedConnectionCannotStarveAnotherOnItsThread() async throws {
        let (broker, endpoint) = try startBroker()
        var configuration = InProcess.worker([endpoint], services: ["flooded", "quiet"], concurrency: 1, credit: 8)
        configuration.ioThreads = 1
        let worker = try MajordomoWorker(
            configuration: configuration, logger: InProcess.logger,
            computation: .onIOThread { request in
                if request.service == "flooded" { Thread.sleep(forTimeInterval: 0.002) }
                return request.body
            })
        try worker.start()
        let client = try echoClient([endpoint])
        #expect(await eventually { await broker.snapshot().workers == 2 })

        let progress = FloodProgress()
        let limit = 3000
        let flood = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<24 {
                    group.addTask {
                        var n = 0
                        while !progress.quietAnswered.load(ordering: .relaxed),
                            progress.replies.load(ordering: .relaxed) < limit
                        {
                            let key = "f\(lane)-\(n)"
                            _ = try await client.request(
                                service: "flooded", body: [Frame(key)], key: key, timeout: .seconds(30))
                            progress.replies.add(1, ordering: .relaxed)
                            n += 1
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Ask once the flood is under way.
        #expect(await eventually { progress.replies.load(ordering: .relaxed) >= 100 })
        let before = progress.replies.load(ordering: .relaxed)
        let reply = try await client.request(service: "quiet", body: ["q"], key: "q", timeout: .seconds(30))
        let during = progress.replies.load(ordering: .relaxed) - before
        progress.quietAnswered.store(true, ordering: .relaxed)
        try await flood.value
        #expect(reply.body == ["q"])
        // Within a turn or two of the loop: the flooded connection's credit (8) per turn, a few turns at most.
        #expect(during < 100, "flood replies while the quiet request waited: \(during) (the flood stops at \(limit))")
        await client.stop()
        await worker.stop()
        await broker.stop()
    }
}

/// How far a flood has come, shared by its lanes and the test.
final class FloodProgress: Sendable {
    let replies = Atomic(0)
    let quietAnswered = Atomic(false)
}
