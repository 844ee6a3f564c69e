import Foundation
import TallyTesting
import Testing

/// `tally-load` load-tests a CURVE cluster with the same keys, flags and environment variables as `tally`.
@Suite(.realProcesses) struct LoadToolCurveTests {
    @Test func aCurveBrokerIsLoadTestedWithTheClientsKeys() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        for name in ["broker", "worker", "client"] {
            let made = try await ShortCommand.run(TallyBinaries.cli, ["keys", "--out", path(name)])
            #expect(made.status == 0, "\(made.errorOutput)")
        }
        let broker = try await TallyCluster.startBroker(
            bind: "tcp://127.0.0.1:0",
            arguments: [
                "--curve-secret-key", path("broker.key"), "--curve-client-keys", path("client.pub"),
                "--curve-worker-keys", path("worker.pub"),
            ])
        let endpoint = try await TallyCluster.brokerEndpoint(broker)
        let worker = try await TallyCluster.startWorker(
            endpoint: endpoint,
            arguments: ["--curve-secret-key", path("worker.key"), "--curve-server-key", path("broker.pub")])
        let run = ["--broker", endpoint, "--requests", "50", "--in-flight", "4", "--timeout", "2s", "--json"]
        let flags = try await ShortCommand.run(
            TallyBinaries.load,
            run + ["--curve-secret-key", path("client.key"), "--curve-server-key", path("broker.pub")],
            timeout: .seconds(60))
        let environment = try await ShortCommand.run(
            TallyBinaries.load, run,
            environment: ["TALLY_CURVE_SECRET_KEY": path("client.key"), "TALLY_CURVE_SERVER_KEY": path("broker.pub")],
            timeout: .seconds(60))
        let plaintext = try await ShortCommand.run(
            TallyBinaries.load, ["--broker", endpoint, "--requests", "2", "--in-flight", "2", "--timeout", "500ms"],
            timeout: .seconds(30))
        let halfKeys = try await ShortCommand.run(
            TallyBinaries.load, ["--broker", endpoint, "--curve-secret-key", path("client.key")], timeout: .seconds(30))
        worker.terminate()
        await worker.waitForExit()
        broker.terminate()
        await broker.waitForExit()

        for (how, result) in [("flags", flags), ("environment", environment)] {
            #expect(result.status == 0, "\(how): \(result.errorOutput)")
            let report = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            let tally = report?["tally"] as? [String: Any]
            #expect(tally?["succeeded"] as? Int == 50, "\(how): \(result.output)")
        }
        #expect(plaintext.status == 3, "a plaintext client gets no answer: \(plaintext.errorOutput)")
        #expect(halfKeys.status == 64 && halfKeys.errorOutput.contains("--curve-server-key"), "\(halfKeys.errorOutput)")
    }
}
