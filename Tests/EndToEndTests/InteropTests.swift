import Foundation
import Logging
import Majordomo
import TallyClient
import TallyProtocol
import TallyTesting
import Testing
import ZeroMQ

/// Tally's broker, worker and client against MDP/0.1 peers written independently from RFC 7 in Python (pyzmq):
/// interoperability byte for byte.
@Suite(.realProcesses) struct InteropTests {
    static let peers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Interop/mdp_peers.py")

    func python(_ arguments: [String], name: String) throws -> ManagedProcess {
        try ManagedProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.peers.path] + arguments, name: name)
    }

    @Test func pythonClientThroughTallyBrokerToTallyWorker() async throws {
        try await withCluster(workers: 1) { cluster in
            let client = try makeClient([cluster.endpoint])
            #expect(await waitForServices(client))
            let python = try python(
                [
                    "client", cluster.endpoint, "tally.streak", #"{"version":1,"id":"py-{n}","method":"system.ping"}"#,
                    "5",
                ],
                name: "py-client")
            #expect(await python.waitForExit(timeout: .seconds(30)) == 0, "\(python.errorOutput)")
            let lines = python.output
            #expect(lines.count == 5)
            for (n, line) in lines.enumerated() {
                #expect(line.contains(#""id":"py-\#(n)""#) && line.contains(#""service":"tally.streak""#), "\(line)")
            }
            await client.stop()
        }
    }

    @Test func pythonWorkerBehindTallyBrokerAnswersTallyClient() async throws {
        try await withCluster(workers: 0) { cluster in
            let worker = try python(["worker", cluster.endpoint, "py.echo"], name: "py-worker")
            let client = try MajordomoClient(brokers: [cluster.endpoint], logger: .init(label: "test")) { _ in nil }
            try client.start()
            #expect(
                await eventually {
                    (try? await client.request(
                        service: "mmi.service", body: ["py.echo"], key: nil, timeout: .seconds(1)))?
                        .body == ["200"]
                })
            for n in 0..<5 {
                let reply = try await client.request(
                    service: "py.echo", body: [Frame("hello-\(n)")], key: nil, timeout: .seconds(10))
                #expect(reply.service == "py.echo")
                #expect(reply.body == [Frame("python-echo:hello-\(n)")])
            }
            worker.terminate()
            await worker.waitForExit()
            await client.stop()
        }
    }

    @Test func tallyWorkerAndClientThroughPythonBroker() async throws {
        let broker = try python(["broker", "tcp://127.0.0.1:0"], name: "py-broker")
        let line = try await broker.waitForLine(containing: "listening")
        let endpoint = String(line.split(separator: " ").last!)
        // The Python broker heartbeats every second (RFC 7's suggested pace is 2.5 s; liveness 3). It is strict about
        // READY's four frames and ignores Tally's five-frame READY: each connection hears nothing for 5 s, then
        // registers with a plain READY (`WorkerSession.offersCapabilities`), well within `waitForServices`.
        let worker = try ManagedProcess(
            TallyBinaries.worker,
            ["--broker", endpoint, "--heartbeat-interval", "1s", "--heartbeat-liveness", "5", "--log-level", "error"],
            name: "worker")
        _ = try await worker.waitForLine(containing: "serving")
        let client = try makeClient([endpoint])
        #expect(await waitForServices(client), "MMI through the Python broker")
        for service in ["tally.history", "tally.streak", "tally.workout"] {
            let pong = try await client.ping(service: .init(rawValue: service))
            #expect(pong.service == service)
            #expect(pid(of: pong.worker) == worker.processIdentifier)
        }
        #expect(try await client.isServiceAvailable("tally.nothing") == false)
        await client.stop()
        worker.terminate()
        #expect(await worker.waitForExit() == 0)
        broker.terminate()
        await broker.waitForExit()
    }
}
