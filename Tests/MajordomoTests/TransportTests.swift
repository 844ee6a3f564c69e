import Foundation
import Majordomo
import Synchronization
import TallyTesting
import Testing
import ZeroMQ

/// Real broker, workers and clients on loopback TCP, in one process.
@Suite(.realProcesses) struct TransportTests {
    @Test func manyRequestsFromTwoClientsAreAnsweredAndSpreadOverWorkers() async throws {
        let (broker, endpoint) = try startBroker()
        let workers = try (1...3).map { try echoWorker("w\($0)", endpoints: [endpoint]) }
        let clients = try (0..<2).map { _ in try echoClient([endpoint]) }
        #expect(await eventually { await broker.snapshot().workers == 6 })

        let counts = Tally()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (c, client) in clients.enumerated() {
                for lane in 0..<25 {
                    group.addTask {
                        for n in 0..<40 {
                            let key = "c\(c)-l\(lane)-\(n)"
                            let reply = try await client.request(
                                service: "echo", body: [Frame(key), "payload"], key: key,
                                timeout: InProcess.replyTimeout)
                            #expect(reply.service == "echo")
                            #expect(reply.body.prefix(2) == [Frame(key), "payload"])
                            counts.add(reply.body[2].text ?? "?")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let perWorker = counts.values
        #expect(perWorker.values.reduce(0, +) == 2000)
        #expect(perWorker.count == 3, "every worker served: \(perWorker)")
        #expect(perWorker.values.allSatisfy { $0 > 100 }, "load spread: \(perWorker)")
        for client in clients { await client.stop() }
        for worker in workers { await worker.stop() }
        await broker.stop()
    }

    @Test func managementInterfaceReportsLiveWorkers() async throws {
        let (broker, endpoint) = try startBroker()
        let client = try echoClient([endpoint])
        func ask(_ service: String, _ name: String) async throws -> String? {
            try await client.request(service: service, body: [Frame(name)], key: nil, timeout: .seconds(5)).body.first?
                .text
        }
        #expect(try await ask("mmi.service", "echo") == "404")
        let worker = try echoWorker("w", endpoints: [endpoint])
        #expect(await eventually { (try? await ask("mmi.service", "echo")) == "200" })
        #expect(try await ask("mmi.service", "other") == "404")
        #expect(try await ask("mmi.nothing", "echo") == "501")
        await worker.stop()
        #expect(await eventually { (try? await ask("mmi.service", "echo")) == "404" })
        await client.stop()
        await broker.stop()
    }

    @Test func requestOfAStoppedWorkerIsAnsweredByAnother() async throws {
        let (broker, endpoint) = try startBroker()
        let slow = try echoWorker("slow", endpoints: [endpoint], concurrency: 1, delay: .seconds(30))
        #expect(await eventually { await broker.snapshot().workers == 1 })
        let client = try echoClient([endpoint])
        let answer = Task {
            try await client.request(service: "echo", body: ["job"], key: "job", timeout: InProcess.replyTimeout)
        }
        #expect(await eventually { await broker.snapshot().services["echo"]?.idleWorkers == 0 })
        let fast = try echoWorker("fast", endpoints: [endpoint], concurrency: 1)
        await slow.stop()
        let reply = try await answer.value
        #expect(reply.body == ["job", "fast"])
        await fast.stop()
        await client.stop()
        await broker.stop()
    }

    @Test func clientTimesOutWhileBrokerIsDownAndWorkersComeBack() async throws {
        // Restarted on the same address: a port below the ephemeral range (`RestartablePort`).
        let (broker, endpoint) = try startBroker(RestartablePort.endpoint())
        let worker = try echoWorker("w", endpoints: [endpoint])
        let client = try echoClient([endpoint])
        #expect(await eventually(timeout: .seconds(30)) { await broker.snapshot().workers == 2 })
        #expect(
            try await client.request(service: "echo", body: ["before"], key: "before", timeout: .seconds(30)).body.first
                == "before")
        await broker.stop()

        let started = ContinuousClock.now
        let statuses = await timeoutStatuses {
            _ = try await client.request(service: "echo", body: ["during"], key: "during", timeout: .milliseconds(300))
        }
        if case .lost = statuses?.first {
        } else {
            Issue.record("the broker's connection was lost: \(String(describing: statuses))")
        }
        // At the call's 300 ms timeout; 3 s of slack for a busy machine.
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(3), "the call ends at its timeout: \(elapsed)")

        // Same port again: the worker notices the old broker is gone, reconnects and registers anew.
        let (restarted, _) = try startBroker(endpoint)
        #expect(await eventually(timeout: .seconds(30)) { await restarted.snapshot().workers == 2 })
        let reply = try await client.request(service: "echo", body: ["after"], key: "after", timeout: .seconds(30))
        #expect(reply.body == ["after", "w"])
        await client.stop()
        await worker.stop()
        await restarted.stop()
    }

    @Test func gracefulShutdownFinishesWorkInFlight() async throws {
        let (broker, endpoint) = try startBroker()
        let started = Tally()
        let draining = Atomic(false)
        let worker = try MajordomoWorker(
            configuration: InProcess.worker([endpoint], concurrency: 1), logger: InProcess.logger
        ) {
            request in
            started.add("job")
            // The computation lasts until the worker is draining.
            _ = await eventually(timeout: .seconds(30)) { draining.load(ordering: .relaxed) }
            return request.body + ["w"]
        }
        try worker.start()
        #expect(await eventually { await broker.snapshot().workers == 1 })
        let client = try echoClient([endpoint])
        let answer = Task {
            try await client.request(service: "echo", body: ["job"], key: "job", timeout: InProcess.replyTimeout)
        }
        // Shut down while the request is being computed.
        #expect(await eventually { started.values["job"] == 1 })
        let shutdown = Task { await worker.shutdown(gracePeriod: .seconds(30)) }
        #expect(await eventually { await worker.status().isDraining }, "draining with the request in hand")
        draining.store(true, ordering: .relaxed)
        await shutdown.value
        #expect(try await answer.value.body == ["job", "w"])
        #expect(await eventually { await broker.snapshot().workers == 0 })
        await client.stop()
        await broker.stop()
    }
}

/// Counts replies per worker across tasks.
final class Tally: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func add(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }

    var values: [String: Int] { counts.withLock { $0 } }
}
