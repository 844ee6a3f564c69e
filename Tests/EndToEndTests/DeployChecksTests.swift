import Foundation
import TallyTesting
import Testing

/// Keeps deploy/ valid: runs `deploy/check` (systemd-analyze verify, the Dockerfile parser, the Compose and
/// Kubernetes schemas, Tally's own cross-checks) so that a change to a setting or a manifest that breaks a
/// deployment fails CI here rather than on a host. A validator that is not installed is skipped by the script
/// with a message (`scripts/install-dependencies --test` installs them all), except in CI. Then runs the real
/// binaries the way the systemd units and the container image do: settings only from the example environment
/// files, health from the image's health check script.
@Suite(.realProcesses) struct DeployChecksTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { repositoryRoot.appendingPathComponent(relative).path }

    @Test func deploymentFilesPassEveryInstalledValidator() async throws {
        // CI installs every validator (scripts/test runs install-dependencies --test): there, a skip is a failure.
        let requireAll = ProcessInfo.processInfo.environment["CI"] == "true" ? ["--require-all"] : []
        let check = try await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["bash", Self.path("deploy/check")] + requireAll,
            timeout: .seconds(120))
        #expect(check.succeeded, "deploy/check failed:\n\(check.output)\n\(check.errorOutput)")
        #expect(check.output.contains("deploy/check: 0 failed"), "\(check.output)")
    }

    /// The example env files of deploy/systemd are what the units give the binaries, with no flags: the binaries
    /// must start from them (an unknown value stops a process at start), and the container's health check script
    /// must pass against them, over HTTP and over MMI.
    @Test func binariesStartFromTheExampleEnvironmentFilesAndPassTheHealthCheck() async throws {
        // Ports the kernel just found free: a random one is too often taken on a machine running dozens of
        // worker connections per test.
        let brokerAddress = ProcessProbes.freeLoopbackAddress()
        let (brokerHTTP, workerHTTP) = (ProcessProbes.freeLoopbackAddress(), ProcessProbes.freeLoopbackAddress())
        var brokerEnvironment = try Self.environmentFile("deploy/systemd/examples/broker.env")
        brokerEnvironment["TALLY_BIND"] = "tcp://\(brokerAddress)"
        brokerEnvironment["TALLY_HTTP"] = brokerHTTP
        var workerEnvironment = try Self.environmentFile("deploy/systemd/examples/worker.env")
            .merging(try Self.environmentFile("deploy/systemd/examples/worker-1.env")) { $1 }
        workerEnvironment["TALLY_BROKERS"] = "tcp://\(brokerAddress)"
        workerEnvironment["TALLY_HTTP"] = workerHTTP

        let broker = try ManagedProcess(TallyBinaries.broker, [], name: "env-broker", environment: brokerEnvironment)
        _ = try await broker.waitForLine(containing: "listening on")
        let worker = try ManagedProcess(TallyBinaries.worker, [], name: "env-worker", environment: workerEnvironment)
        _ = try await worker.waitForLine(containing: "serving")

        #expect(await eventually(timeout: .seconds(15)) { await healthCheck(["TALLY_HTTP": workerHTTP]) == 0 })
        #expect(await healthCheck(["TALLY_HTTP": brokerHTTP]) == 0)
        #expect(
            await eventually(timeout: .seconds(15)) {
                await healthCheck(["TALLY_HTTP": "", "TALLY_HEALTH_BROKER": "tcp://\(brokerAddress)"]) == 0
            }, "tally health over MMI should pass once the worker has registered")
        #expect(await healthCheck(["TALLY_HTTP": ProcessProbes.freeLoopbackAddress()]) != 0, "nothing listens there")

        worker.terminate()
        #expect(await worker.waitForExit() == 0)
        broker.terminate()
        #expect(await broker.waitForExit() == 0)
    }

    /// tally-gateway from deploy/systemd/examples/gateway.env alone (but for where it listens and which broker it
    /// calls): it starts, passes the image's health check on its monitoring port, and answers a call.
    @Test func theGatewayStartsFromItsExampleEnvironmentFileAndPassesTheHealthCheck() async throws {
        try await withCluster(workers: 1) { cluster in
            let monitoring = ProcessProbes.freeLoopbackAddress()
            var environment = try Self.environmentFile("deploy/systemd/examples/gateway.env")
            #expect(environment["TALLY_LISTEN"]?.hasPrefix("127.0.0.1:") == true, "loopback unless told otherwise")
            environment["TALLY_LISTEN"] = "127.0.0.1:0"
            environment["TALLY_BROKERS"] = cluster.endpoint
            environment["TALLY_HTTP"] = monitoring
            let gateway = try ManagedProcess(TallyBinaries.gateway, [], name: "env-gateway", environment: environment)
            let line = try await gateway.waitForLine(containing: "listening on")
            let address = try #require(line.split(separator: "/").last.map(String.init), "\(line)")
            #expect(await eventually(timeout: .seconds(15)) { await healthCheck(["TALLY_HTTP": monitoring]) == 0 })
            let port = try #require(address.split(separator: ":").last.flatMap { UInt16($0) }, "\(line)")
            let ping = try await HTTPTestConnection(host: "127.0.0.1", port: port).post("/v1/system.ping", [])
            #expect(ping.status == 200, "\(ping.text)")
            gateway.terminate()
            #expect(await gateway.waitForExit() == 0)
        }
    }

    /// A process that listens for HTTP on IPv6 loopback or on a wildcard address is asked where it listens.
    @Test func theHealthCheckAsksWhereTheProcessListens() async throws {
        let port = { ProcessProbes.freeLoopbackAddress().split(separator: ":").last.map(String.init)! }
        for http in ["[::1]:\(port())", "[::]:\(port())", "0.0.0.0:\(port())"] {
            let broker = try ManagedProcess(
                TallyBinaries.broker, ["--bind", "tcp://\(ProcessProbes.freeLoopbackAddress())", "--http", http],
                name: "http-broker")
            _ = try await broker.waitForLine(containing: "listening on")
            #expect(await eventually(timeout: .seconds(10)) { await healthCheck(["TALLY_HTTP": http]) == 0 }, "\(http)")
            broker.terminate()
            #expect(await broker.waitForExit() == 0)
        }
    }

    /// Runs deploy/container/healthcheck with the built binaries on PATH, as in the image; returns its status.
    func healthCheck(_ environment: [String: String]) async -> Int32? {
        var environment = environment
        environment["PATH"] = TallyBinaries.directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        let check = try? await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["bash", Self.path("deploy/container/healthcheck")],
            environment: environment)
        return check?.status
    }

    /// `NAME=value` lines of an environment file, as systemd's EnvironmentFile= reads the simple ones.
    static func environmentFile(_ relative: String) throws -> [String: String] {
        var variables: [String: String] = [:]
        for line in try String(contentsOfFile: path(relative), encoding: .utf8).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, !text.hasPrefix("#"), let equals = text.firstIndex(of: "=") else { continue }
            variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return variables
    }
}
