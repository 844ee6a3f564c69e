import Foundation
import TallyClient
import TallyTesting
import Testing

/// A broker host that goes silent (its process stopped whole: connections open, nothing answered, no TCP reset)
/// behind a gateway with two brokers: TallyClient inside the gateway notices it within about a second and sends
/// what it held to the other broker, so no HTTP call is lost, with no retry spent (`--retries 0`). With both silent
/// there is nobody to answer: a call ends as `deadline_exceeded` (504) within its `Request-Timeout`, and `/readyz`
/// says the gateway cannot do its job (503).
@Suite(.realProcesses(slots: 2)) struct GatewayFailoverTests {
    static let callers = 8
    static let callsPerCaller = 15

    @Test func aSilentBrokerCostsNoCallAndTwoAreAGatewayTimeout() async throws {
        let brokerAHTTP = ProcessProbes.freeLoopbackAddress()
        let brokerA = try await TallyCluster.startBroker(bind: "tcp://127.0.0.1:0", arguments: ["--http", brokerAHTTP])
        let endpointA = try await TallyCluster.brokerEndpoint(brokerA)
        let brokerB = try await TallyCluster.startBroker(bind: "tcp://127.0.0.1:0")
        let endpointB = try await TallyCluster.brokerEndpoint(brokerB)
        var workers: [ManagedProcess] = []
        for index in 0..<2 {
            workers.append(
                try await TallyCluster.startWorker(
                    endpoint: endpointA, arguments: ["--broker", endpointB], name: "both-\(index)"))
        }
        let onlyA = try makeClient([endpointA])
        let onlyB = try makeClient([endpointB])
        #expect(await waitForServices(onlyA), "workers registered with broker A")
        #expect(await waitForServices(onlyB), "workers registered with broker B")
        await onlyA.stop()
        await onlyB.stop()
        let monitoring = ProcessProbes.freeLoopbackAddress()
        let gateway = try await GatewayProcess.start(
            brokers: [endpointA, endpointB], arguments: ["--retries", "0", "--http", monitoring])
        func readiness() async -> Int? {
            await PlainHTTPGet.get(monitoring, path: "/readyz")?.status
        }
        #expect(await eventually(timeout: .seconds(20)) { await readiness() == 200 }, "ready with both brokers")

        // Both brokers take calls: each of the callers' connections is answered before A stops.
        let connections = try (0..<Self.callers).map { _ in try gateway.connect() }
        for connection in connections {
            let warm = try await connection.post("/v1/system.ping", [])
            #expect(warm.status == 200, "\(warm.text)")
        }

        let takenByA = ProcessProbes.total(
            "tally_broker_requests_total", in: await ProcessProbes.metrics(at: brokerAHTTP) ?? "")
        #expect(takenByA >= 1, "broker A took some of the calls, so some are in its hands when it stops")

        brokerA.suspend()
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for connection in connections {
                group.addTask {
                    try await onOwnThread {
                        try (0..<Self.callsPerCaller).map { _ in
                            try connection.request(
                                "POST", "/v1/system.ping", headers: [("Request-Timeout", "15s")], body: []
                            ).status
                        }
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.count == Self.callers * Self.callsPerCaller)
        #expect(
            statuses.allSatisfy { $0 == 200 },
            "every call answered through broker B: \(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")

        brokerB.suspend()
        let late = try await connections[0].post("/v1/system.ping", [], headers: [("Request-Timeout", "1500ms")])
        try GatewayErrorsTests.expectError(late, "deadline_exceeded")
        #expect(await eventually(timeout: .seconds(20)) { await readiness() == 503 }, "not ready with no broker")

        brokerA.resume()
        brokerB.resume()
        gateway.process.terminate()
        _ = await gateway.process.waitForExit()
        for worker in workers { worker.terminate() }
        for worker in workers { await worker.waitForExit() }
        for broker in [brokerA, brokerB] {
            broker.terminate()
            await broker.waitForExit()
        }
    }
}
