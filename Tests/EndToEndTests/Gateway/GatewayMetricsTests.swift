import Foundation
import TallyTesting
import Testing

/// The gateway's `/metrics` after traffic: `promtool check metrics` finds nothing to say, requests are counted by
/// method and status (a path of no method as `other`, so that no caller can grow the series), their latency is a
/// histogram by method, connections are counted, and the build and process metrics are the other programs'.
@Suite(.realProcesses) struct GatewayMetricsTests {
    @Test func theExpositionPassesPromtoolAndCountsByMethodAndStatus() async throws {
        try #require(
            MetricsConventionsTests.promtoolIsInstalled, "promtool is missing: scripts/install-dependencies --test")
        let monitoring = ProcessProbes.freeLoopbackAddress()
        try await GatewayCluster.with(workers: 1, gatewayArguments: ["--http", monitoring]) { setup in
            let connection = try setup.gateway.connect()
            for _ in 0..<3 { #expect(try await connection.post("/v1/system.ping", []).status == 200) }
            #expect(try await connection.post("/v1/streak.summary", Array("{}".utf8)).status == 400)
            for name in ["history.nope", "nope-\(UUID().uuidString)"] {
                #expect(try await connection.post("/v1/\(name)", []).status == 404)
            }
            let exposition = try #require(await ProcessProbes.metrics(at: monitoring))
            let check = try await MetricsConventionsTests.promtool(exposition)
            #expect(check.succeeded && check.output.isEmpty && check.errorOutput.isEmpty, "\(check)\n\(exposition)")
            func sample(_ series: String) -> Double { ProcessProbes.sample(series, in: exposition) }
            #expect(sample(#"tally_gateway_requests_total{method="system.ping",status="200"}"#) == 3)
            #expect(sample(#"tally_gateway_requests_total{method="streak.summary",status="400"}"#) == 1)
            #expect(sample(#"tally_gateway_requests_total{method="other",status="404"}"#) == 2)
            #expect(!exposition.contains("history.nope") && !exposition.contains("nope-"), "no series of a caller's")
            #expect(sample(#"tally_gateway_request_duration_seconds_count{method="system.ping"}"#) == 3)
            #expect(sample("tally_gateway_connections_total") >= 1)
            #expect(sample("tally_gateway_open_connections") >= 1, "this test's connection is open")
            #expect(exposition.contains(#"tally_build_info{version=""#))
            #expect(exposition.contains("process_cpu_seconds_total"))
        }
    }
}
