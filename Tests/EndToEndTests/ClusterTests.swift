import Foundation
import Synchronization
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// The whole system as processes: tally-broker and tally-worker binaries on loopback TCP.
@Suite(.realProcesses) struct ClusterTests {
    @Test func tenThousandRequestsFromTwoClientsAreMatchedAndSpreadOverThreeWorkers() async throws {
        let cluster = try await TallyCluster.start(workers: 3, workerArguments: ["--concurrency", "4"])
        let clients = try (0..<2).map { _ in try makeClient([cluster.endpoint]) }
        #expect(await waitForServices(clients[0]))
        #expect(await eventually { (try? await clients[0].ping()) != nil })

        let answeredBy = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients {
                for _ in 0..<50 {
                    group.addTask {
                        for _ in 0..<100 {
                            let pong = try await client.ping(service: .history)
                            #expect(pong.service == "tally.history")
                            answeredBy.add(pong.worker)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let counts = answeredBy.counts
        #expect(counts.values.reduce(0, +) == 10_000)
        let workerPIDs = Set(cluster.workers.map(\.processIdentifier))
        #expect(Set(counts.keys.compactMap(pid(of:))) == workerPIDs, "every worker answered: \(counts)")
        #expect(counts.values.allSatisfy { $0 >= 1000 }, "load spread over all workers: \(counts)")
        for client in clients { await client.stop() }
        await cluster.stop()
        #expect(cluster.broker.isRunning == false)
    }

    @Test func killNineOfAWorkerHoldingARequestHandsItToAnother() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        try await withCluster(workers: 0, brokerArguments: ["--http", brokerHTTP]) { cluster in
            let slow = try await TallyCluster.startWorker(
                endpoint: cluster.endpoint, arguments: ["--concurrency", "1", "--simulated-latency", "30s"],
                name: "slow")
            // No retries: the answer must come from the broker re-queueing, not from the client trying again.
            let client = try makeClient([cluster.endpoint], timeout: .seconds(20), retries: 0)
            #expect(await waitForServices(client))
            let answer = Task { try await client.ping(service: .history) }
            let held = #"tally_broker_in_flight_requests{service="tally.history"}"#
            #expect(
                await eventually {
                    await ProcessProbes.metrics(at: brokerHTTP).map { ProcessProbes.sample(held, in: $0) } == 1
                }, "the slow worker holds the request")
            // Registered (its READY answered) before it returns: the broker can hand it the request.
            let healthy = try await TallyCluster.startWorker(endpoint: cluster.endpoint, name: "healthy")
            slow.kill9()
            let clock = ContinuousClock()
            let start = clock.now
            let pong = try await answer.value
            #expect(pid(of: pong.worker) == healthy.processIdentifier)
            // The broker's next heartbeat to the killed worker (every 2.5 s) finds its connection gone: re-queued
            // within about 2.6 s, far from the slow worker's 30 s whatever the machine is doing.
            let elapsed = clock.now - start
            #expect(elapsed < .seconds(15), "re-queued promptly, not after the slow worker's 30 s: \(elapsed)")
            await client.stop()
            healthy.terminate()
            await healthy.waitForExit()
        }
    }

    @Test func brokerDownMeansATimeoutWithinTheDeadlineAndWorkersComeBack() async throws {
        // Restarted on the same address: a port below the ephemeral range (`RestartablePort`).
        let cluster = try await TallyCluster.start(workers: 1, bind: RestartablePort.endpoint())
        let client = try makeClient([cluster.endpoint], timeout: .seconds(2), retries: 2)
        #expect(await waitForServices(client))
        _ = try await client.ping()

        cluster.broker.kill9()
        await cluster.broker.waitForExit()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await client.ping()
            Issue.record("a dead broker cannot answer")
        } catch {
            #expect(error.code == .timeout && !error.isFromServer, "\(error)")
            #expect(error.attempts.count >= 2, "every attempt is kept: \(error.attempts)")
        }
        // The 2 s timeout bounds the call, all attempts together; three attempts of 2 s each would take 6 s.
        let elapsed = clock.now - start
        #expect(elapsed < .seconds(4), "the timeout respects the deadline: \(elapsed)")

        let restarted = try await TallyCluster.startBroker(bind: cluster.endpoint)
        #expect(await waitForServices(client), "the worker registered again with the new broker")
        let pong = try await client.ping(service: .streak)
        #expect(pid(of: pong.worker) == cluster.workers[0].processIdentifier)
        await client.stop()
        cluster.workers[0].terminate()
        await cluster.workers[0].waitForExit()
        restarted.terminate()
        await restarted.waitForExit()
    }

    @Test func gracefulShutdownOfAWorkerLosesNoRequest() async throws {
        try await withCluster(workers: 1, workerArguments: ["--simulated-latency", "300ms"]) { cluster in
            let client = try makeClient([cluster.endpoint], timeout: .seconds(10), retries: 0)
            #expect(await waitForServices(client))
            let second = try await TallyCluster.startWorker(
                endpoint: cluster.endpoint, arguments: ["--simulated-latency", "300ms"])
            let results = Counter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        for _ in 0..<5 { results.add((try await client.ping()).worker) }
                    }
                }
                // Stopped once it is serving: the first of its answers is in, and others are in flight.
                let first = cluster.workers[0].processIdentifier
                while !results.counts.keys.contains(where: { pid(of: $0) == first }) {
                    try await Task.sleep(for: .milliseconds(10))
                }
                cluster.workers[0].terminate()
                try await group.waitForAll()
            }
            #expect(results.counts.values.reduce(0, +) == 40)
            #expect(await cluster.workers[0].waitForExit() == 0)
            second.terminate()
            await second.waitForExit()
            await client.stop()
        }
    }
}

/// Counts occurrences across tasks.
final class Counter: Sendable {
    private let storage = Mutex<[String: Int]>([:])

    func add(_ key: String) { storage.withLock { $0[key, default: 0] += 1 } }

    var counts: [String: Int] { storage.withLock { $0 } }
}
