import Foundation
import TallyTesting
import Testing

/// `--http` with a host name or an IPv6 address, and an address that cannot be listened on, on real processes.
@Suite(.realProcesses) struct MonitoringAddressTests {
    @Test func aHostNameAndABracketedIPv6AddressAreListenedOn() async throws {
        // Free ports, let go of just before the processes bind them.
        let brokerPort = try HeldPort().port
        let workerPort = try HeldPort(ipv6: true).port
        let cluster = try await TallyCluster.start(workers: 0, brokerArguments: ["--http", "localhost:\(brokerPort)"])
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint, arguments: ["--http", "[::1]:\(workerPort)"])
        #expect(
            await eventually { await PlainHTTPGet.status(host: "127.0.0.1", port: brokerPort, path: "/livez") == 200 },
            "localhost is 127.0.0.1 here")
        #expect(
            await eventually { await PlainHTTPGet.status(host: "::1", port: workerPort, path: "/readyz") == 200 },
            "the worker listens on ::1")
        #expect(await PlainHTTPGet.status(host: "::1", port: workerPort, path: "/metrics") == 200)
        #expect(
            await PlainHTTPGet.status(host: "127.0.0.1", port: workerPort, path: "/livez") == nil,
            "and only there: the IPv6 address was taken literally")
        worker.terminate()
        #expect(await worker.waitForExit() == 0)
        await cluster.stop()
    }

    @Test(arguments: [false, true])
    func aTakenPortStopsTheProcessAtStartNamingTheAddress(ipv6: Bool) async throws {
        let held = try HeldPort(ipv6: ipv6)
        let addresses =
            ipv6 ? ["[::1]:\(held.port)"] : ["127.0.0.1:\(held.port)", "localhost:\(held.port)"]
        for address in addresses {
            for (binary, arguments) in [
                (TallyBinaries.broker, ["--bind", "tcp://127.0.0.1:0"]),
                (TallyBinaries.worker, ["--broker", "tcp://127.0.0.1:1"]),
            ] {
                let result = try await ShortCommand.run(binary, arguments + ["--http", address])
                let name = "\(binary.lastPathComponent) --http \(address)"
                #expect(result.status == 1, "\(name) fails: \(result.errorOutput)")
                #expect(
                    result.errorOutput.contains(address) && result.errorOutput.contains("Address already in use"),
                    "\(name): the error names the address: \(result.errorOutput)")
                #expect(
                    !result.output.contains("listening on") && !result.output.contains("serving"),
                    "\(name) never said it was ready: \(result.output)")
            }
        }
    }

    @Test(arguments: [
        ("::1:9100", "brackets"), ("localhost", "no port"), ("999.1.1.1:9100", "not an IPv4 address"),
        ("[::1]:70000", "0...65535"), ("[::1]9100", "a port must follow"), ("host_name:9100", "not a host name"),
        ("[::g]:9100", "not an IPv6 address"), (":9100", "no host"),
    ])
    func aMalformedAddressIsAUsageErrorNamingTheOption(address: String, reason: String) async throws {
        let result = try await ShortCommand.run(
            TallyBinaries.broker, ["--bind", "tcp://127.0.0.1:0", "--http", address])
        #expect(result.status == 64, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("--http") && result.errorOutput.contains(reason), "\(result.errorOutput)")
    }

    @Test func aNameThatDoesNotResolveStopsTheProcessNamingIt() async throws {
        let result = try await ShortCommand.run(
            TallyBinaries.worker, ["--broker", "tcp://127.0.0.1:1", "--http", "no-such-host.invalid:9100"])
        #expect(result.status == 1, "\(result.errorOutput)")
        #expect(
            result.errorOutput.contains("no-such-host.invalid:9100") && result.errorOutput.contains("does not resolve"),
            "\(result.errorOutput)")
    }
}
