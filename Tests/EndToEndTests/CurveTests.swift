import Foundation
import TallyTesting
import Testing

/// CURVE between real processes, keys made by `tally keys`: the allowed client gets answers; an unknown key, a
/// plaintext client and a client key posing as a worker get nothing.
@Suite(.realProcesses) struct CurveTests {
    func run(_ arguments: [String]) async throws -> (status: Int32?, output: [String]) {
        let process = try ManagedProcess(TallyBinaries.cli, arguments, name: "tally")
        let status = await process.waitForExit(timeout: .seconds(20))
        return (status, process.output)
    }

    @Test func onlyListedKeysInTheirRolesGetIn() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["broker", "worker", "client", "stranger"] {
            #expect(try await run(["keys", "--out", directory.appendingPathComponent(name).path]).status == 0)
        }
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let attributes = try FileManager.default.attributesOfItem(atPath: path("broker.key"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let broker = try await TallyCluster.startBroker(
            bind: "tcp://127.0.0.1:0",
            arguments: [
                "--curve-secret-key", path("broker.key"), "--curve-client-keys", path("client.pub"),
                "--curve-worker-keys", path("worker.pub"), "--http", brokerHTTP,
            ])
        let endpoint = try await TallyCluster.brokerEndpoint(broker)
        let worker = try await TallyCluster.startWorker(
            endpoint: endpoint,
            arguments: [
                "--curve-secret-key", path("worker.key"), "--curve-server-key", path("broker.pub"),
            ])
        let allowed = [
            "--broker", endpoint, "--curve-secret-key", path("client.key"), "--curve-server-key", path("broker.pub"),
        ]
        #expect(
            await eventually(timeout: .seconds(15)) {
                (try? await run(["health", "--timeout", "1s"] + allowed).status) == 0
            })
        let ping = try await run(["ping", "--service", "tally.workout"] + allowed)
        #expect(ping.status == 0)
        #expect(ping.output.first?.contains("/\(worker.processIdentifier) ") == true, "\(ping.output)")

        let stranger = [
            "--broker", endpoint, "--timeout", "1s", "--curve-secret-key", path("stranger.key"), "--curve-server-key",
            path("broker.pub"),
        ]
        #expect(try await run(["ping"] + stranger).status == 3)
        #expect(try await run(["ping", "--broker", endpoint, "--timeout", "1s"]).status == 3, "plaintext is refused")

        // A client key cannot serve as a worker: its READY reaches the broker, which refuses it for the key's role,
        // and its service never appears.
        func violations() async -> Double {
            ProcessProbes.sample("tally_broker_protocol_violations_total", in: await ProcessProbes.metrics(at: brokerHTTP) ?? "")
        }
        let violationsBefore = await violations()
        let rogue = try await TallyCluster.startWorker(
            endpoint: endpoint,
            arguments: [
                "--service", "tally.rogue", "--curve-secret-key", path("client.key"), "--curve-server-key",
                path("broker.pub"),
            ], name: "rogue", waitFor: .started)
        #expect(await eventually { await violations() > violationsBefore }, "the rogue's READY was refused")
        let mmi = try await run(["mmi", "tally.rogue"] + allowed)
        #expect(mmi.status == 2 && mmi.output == ["404"])

        for process in [rogue, worker, broker] {
            process.terminate()
            await process.waitForExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
