import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// `/metrics`, `/livez` and `/readyz` on real broker and worker processes.
@Suite(.realProcesses) struct MonitoringTests {
    /// `GET http://host:port/path`.
    func get(_ url: String) async throws -> (status: Int, body: String) {
        let target = url.dropFirst("http://".count)
        let slash = target.firstIndex(of: "/") ?? target.endIndex
        let response = try #require(await PlainHTTPGet.get(String(target[..<slash]), path: String(target[slash...])))
        return (response.status, response.body)
    }

    @Test func brokerAndWorkerExposeHealthAndMetrics() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let workerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(workers: 0, brokerArguments: ["--http", brokerHTTP])
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint, arguments: ["--http", workerHTTP, "--connections", "3"])
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client))
        #expect(try await get("http://\(brokerHTTP)/livez").status == 200)
        #expect(try await get("http://\(brokerHTTP)/readyz").status == 200)
        #expect(await eventually { (try? await get("http://\(workerHTTP)/readyz").status) == 200 })

        for _ in 0..<5 { _ = try await client.ping(service: .streak) }
        _ = try await client.send(
            rawBody: Array(#"{"version":1,"id":"bad-1","method":"streak.nope"}"#.utf8), service: "tally.streak")

        let brokerMetrics = try await get("http://\(brokerHTTP)/metrics").body
        #expect(
            brokerMetrics.contains(#"tally_broker_requests_total{service="tally.streak",outcome="delivered"} 6"#),
            "\(brokerMetrics)")
        #expect(brokerMetrics.contains(#"tally_broker_worker_connections{service="tally.streak"} 3"#))
        #expect(
            brokerMetrics.contains(#"tally_broker_worker_processes{service="tally.streak"} 1"#),
            "3 connections, one process")
        #expect(brokerMetrics.contains("tally_broker_request_duration_seconds_bucket"))
        let workerMetrics = try await get("http://\(workerHTTP)/metrics").body
        #expect(
            workerMetrics.contains(
                #"tally_worker_requests_total{service="tally.streak",method="system.ping",outcome="ok"} 5"#),
            "\(workerMetrics)")
        #expect(
            workerMetrics.contains(
                #"tally_worker_requests_total{service="tally.streak",method="unknown",outcome="unknown_method"} 1"#))

        // A draining worker is no longer ready.
        worker.terminate()
        #expect(await worker.waitForExit() == 0)
        await client.stop()
        await cluster.stop()
    }
}
