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
}
