import Foundation
import TallyTesting
import Testing

/// HTTP/1.1 keep-alive under load: 100 connections at once, each reused for every one of its requests (the
/// gateway's own count of connections says so), every request answered.
@Suite(.realProcesses(slots: 2)) struct GatewayKeepAliveTests {
    static let connections = 100
    static let requestsPerConnection = 20

    @Test func aHundredConcurrentConnectionsAreEachKeptForAllTheirRequests() async throws {
        let metricsAddress = ProcessProbes.freeLoopbackAddress()
        try await GatewayCluster.with(gatewayArguments: ["--http", metricsAddress]) { setup in
            func total(_ name: String) async -> Double {
                ProcessProbes.total(name, in: await ProcessProbes.metrics(at: metricsAddress) ?? "")
            }
            let connectionsBefore = await total("tally_gateway_connections_total")
            let streak = Array(
                #"{"time_zone":"Europe/Berlin","today":"2026-11-23","goal_log":[{"effective_date":"2026-01-01","goal":8000}],"records":[{"date":"2026-11-22","steps":9100}]}"#
                    .utf8)
            let gateway = setup.gateway
            let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                for lane in 0..<Self.connections {
                    group.addTask {
                        try await onOwnThread {
                            let connection = try gateway.connect()
                            return try (0..<Self.requestsPerConnection).map { index in
                                let response =
                                    (lane + index) % 2 == 0
                                    ? try connection.request("POST", "/v1/system.ping", body: Array("{}".utf8))
                                    : try connection.request("POST", "/v1/streak.summary", body: streak)
                                return response.status
                            }
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(statuses.count == Self.connections * Self.requestsPerConnection)
            #expect(
                statuses.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
            let connectionsAfter = await total("tally_gateway_connections_total")
            #expect(
                connectionsAfter - connectionsBefore == Double(Self.connections),
                "one connection per lane, kept for its \(Self.requestsPerConnection) requests")
            let metrics = await ProcessProbes.metrics(at: metricsAddress) ?? ""
            #expect(
                ProcessProbes.sample(#"tally_gateway_requests_total{method="system.ping",status="200"}"#, in: metrics)
                    >= Double(Self.connections * Self.requestsPerConnection / 2), "\(metrics.prefix(3000))")
        }
    }

    /// Requests sent back to back on one connection, before any answer (HTTP/1.1 pipelining), are answered in the
    /// order they were sent, each by its own answer: the one answered from its head alone (an unknown method) waits
    /// for the call before it, which is with a worker.
    @Test func pipelinedRequestsAreAnsweredInTheirOrder() async throws {
        try await GatewayCluster.with(workers: 1) { setup in
            let connection = try setup.gateway.connect()
            let statuses = try await onOwnThread {
                func post(_ path: String) -> String {
                    "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
                }
                try connection.write(
                    Array((post("/v1/system.ping") + post("/v1/no.such") + post("/v1/system.ping")).utf8))
                return try (0..<3).map { _ in try connection.readResponse().status }
            }
            #expect(statuses == [200, 404, 200])
        }
    }

    /// `Connection: close` from the caller: its answer says so, and the gateway closes the connection after it.
    @Test func aCallerThatAsksForCloseIsAnsweredAndClosed() async throws {
        try await GatewayCluster.with(workers: 1) { setup in
            let connection = try setup.gateway.connect()
            let answer = try await connection.post(
                "/v1/system.ping", Array("{}".utf8), headers: [("Connection", "close")])
            #expect(answer.status == 200)
            #expect(answer.headers["connection"] == "close")
            #expect(try await onOwnThread { connection.isClosedByServer() })
        }
    }

    /// A kept-alive connection that sends nothing for `--idle-timeout` after its answer is closed by the gateway.
    @Test func anIdleConnectionIsClosedAfterItsTimeout() async throws {
        try await GatewayCluster.with(workers: 1, gatewayArguments: ["--idle-timeout", "1s"]) { setup in
            let connection = try setup.gateway.connect()
            let answer = try await connection.post("/v1/system.ping", Array("{}".utf8))
            #expect(answer.status == 200)
            #expect(answer.headers["connection"] == nil, "kept alive until it idles")
            #expect(try await onOwnThread { connection.isClosedByServer() }, "closed within the read's 15 s")
        }
    }

    /// SIGTERM while a call is with a worker: the gateway answers that call on its connection, then closes the
    /// connection and exits cleanly.
    @Test func aStoppingGatewayAnswersTheCallInProgressThenCloses() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        try await GatewayCluster.with(
            workers: 1, brokerArguments: ["--http", brokerHTTP], workerArguments: ["--simulated-latency", "1500ms"]
        ) { setup in
            let connection = try setup.gateway.connect()
            try await onOwnThread {
                try connection.write(
                    Array("POST /v1/system.ping HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}".utf8))
            }
            let inFlight = await eventually {
                ProcessProbes.total(
                    "tally_broker_in_flight_requests", in: await ProcessProbes.metrics(at: brokerHTTP) ?? "")
                    >= 1
            }
            #expect(inFlight, "the call reached the worker")
            setup.gateway.process.terminate()
            let answer = try await onOwnThread { try connection.readResponse() }
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try await onOwnThread { connection.isClosedByServer() })
            #expect(await setup.gateway.process.waitForExit() == 0)
        }
    }
}
