import Foundation
import Synchronization
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// Two brokers, clients and workers connected to both; one broker is killed under load and later restarted.
@Suite(.realProcesses) struct BrokerFailoverTests {
    /// Where the drill stands, so that outcomes can be reported per phase.
    enum Phase: String, Sendable {
        case bothUp = "both brokers up"
        case oneDown = "broker A killed"
        case restarted = "broker A restarted"
    }

    /// Concurrent callers of the failover drill.
    static let callers = 8

    @Test func killingOneOfTwoBrokersUnderLoadFailsCallsOverAndWorkersRegisterAgain() async throws {
        // A is restarted on its address: a port below the ephemeral range (`RestartablePort`).
        let brokerA = try await TallyCluster.startBroker(bind: RestartablePort.endpoint())
        let endpointA = try await TallyCluster.brokerEndpoint(brokerA)
        let brokerB = try await TallyCluster.startBroker(bind: "tcp://127.0.0.1:0")
        let endpointB = try await TallyCluster.brokerEndpoint(brokerB)
        var workers: [ManagedProcess] = []
        for index in 0..<2 {
            workers.append(
                try await TallyCluster.startWorker(
                    endpoint: endpointA, arguments: ["--broker", endpointB, "--simulated-latency", "20ms"],
                    name: "both-\(index)"))
        }
        let onlyA = try makeClient([endpointA])
        let onlyB = try makeClient([endpointB])
        #expect(await waitForServices(onlyA), "workers registered with broker A")
        #expect(await waitForServices(onlyB), "workers registered with broker B")

        let client = try makeClient([endpointA, endpointB], timeout: .seconds(10), retries: 3)
        let drill = DrillState()
        let outcomes = Counter()
        let calling = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<Self.callers {
                    group.addTask {
                        while !drill.stopped.load(ordering: .relaxed) {
                            let started = drill.phase.withLock { $0 }
                            let outcome: String
                            do throws(TallyClientError) {
                                _ = try await client.ping()
                                outcome = "ok"
                            } catch {
                                outcome = error.code.rawValue
                            }
                            outcomes.add("\(started.rawValue): \(outcome)")
                        }
                    }
                }
            }
        }

        // Each phase lasts until the callers have seen what it is about: calls answered with both brokers up; A
        // taken for lost and calls answered without it; calls answered once it is back.
        func answered(in phase: Phase) -> Int { outcomes.counts["\(phase.rawValue): ok", default: 0] }
        #expect(await eventually { answered(in: .bothUp) >= Self.callers }, "calls through both brokers")
        brokerA.kill9()
        await brokerA.waitForExit()
        drill.phase.withLock { $0 = .oneDown }
        #expect(
            await eventually(timeout: .seconds(30)) {
                let lostA = await client.brokerConnections().contains { $0.endpoint == endpointA && $0.losses > 0 }
                return lostA && answered(in: .oneDown) >= Self.callers
            }, "the client took broker A for lost and went on with B")
        let restartedA = try await TallyCluster.startBroker(bind: endpointA)
        drill.phase.withLock { $0 = .restarted }
        let registeredAgain = await waitForServices(onlyA)
        #expect(await eventually { answered(in: .restarted) >= Self.callers }, "calls after the restart")
        drill.stopped.store(true, ordering: .relaxed)
        await calling.value

        let counts = outcomes.counts
        print(
            "broker failover, what the client saw: "
                + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "; "))
        let failures = counts.filter { !$0.key.hasSuffix(": ok") }.values.reduce(0, +)
        #expect(registeredAgain, "workers registered again with the restarted broker")
        #expect(counts["\(Phase.oneDown.rawValue): ok", default: 0] > 0, "calls fail over to broker B")
        #expect(counts["\(Phase.restarted.rawValue): ok", default: 0] > 0, "service continues after the restart")
        // Retries within the deadline hide the lost broker (every run so far: no failure at all). The bound allows
        // only the calls in flight when it died, and only as explicit errors, for a machine too loaded to retry.
        #expect(failures <= Self.callers, "at most the calls in flight were lost: \(counts)")
        let kinds = Set(counts.keys.compactMap { $0.split(separator: ": ").last.map(String.init) })
        #expect(kinds.isSubset(of: ["ok", "timeout", "unavailable"]), "every failure is explicit: \(counts)")
        // Both brokers serve again: a client bound to each one alone gets answers.
        _ = try await onlyA.ping()
        _ = try await onlyB.ping(service: .workout)

        for connected in [client, onlyA, onlyB] { await connected.stop() }
        for worker in workers { worker.terminate() }
        for worker in workers { #expect(await worker.waitForExit() == 0) }
        for broker in [restartedA, brokerB] {
            broker.terminate()
            await broker.waitForExit()
        }
    }
}

/// The failover drill's shared state: its phase, read by every caller, and whether callers should stop.
final class DrillState: Sendable {
    let phase = Mutex(BrokerFailoverTests.Phase.bothUp)
    let stopped = Atomic(false)
}
