import Foundation
import TallyCommandLine
import TallyTesting
import Testing

/// A mistyped endpoint stops every binary at start, naming the option, instead of a reconnect loop that logs
/// `Invalid argument` for ever.
@Suite(.realProcesses) struct StartupValidationTests {
    @Test(
        arguments: [
            (TallyBinaries.worker, ["--broker", "127.0.0.1:5701"], "--broker", "write tcp://127.0.0.1:5701"),
            (TallyBinaries.worker, ["--broker", "tcp://*:5555"], "--broker", "can only be bound"),
            (TallyBinaries.broker, ["--bind", "tcp://127.0.0.1:99999"], "--bind", "1...65535"),
            (TallyBinaries.broker, ["--bind", "udp://127.0.0.1:5555"], "--bind", "unsupported transport"),
            (TallyBinaries.cli, ["ping", "--broker", "localhost:5555"], "--broker", "has no transport"),
            (TallyBinaries.load, ["--broker", "tcp://[::1:5555", "--duration", "1s"], "--broker", "IPv6"),
        ])
    func aBadEndpointStopsTheProcessNamingTheOption(
        binary: URL, arguments: [String], option: String, reason: String
    ) async throws {
        let result = try await ShortCommand.run(binary, arguments)
        #expect(result.status == 64, "usage error, at once: \(result.errorOutput)")
        #expect(result.errorOutput.contains(option) && result.errorOutput.contains(reason), "\(result.errorOutput)")
    }

    @Test func aBadEndpointInTheEnvironmentIsNamedToo() async throws {
        let result = try await ShortCommand.run(
            TallyBinaries.worker, [], environment: ["TALLY_BROKERS": "tcp://127.0.0.1:5555,127.0.0.1:5556"])
        #expect(result.status == 64)
        #expect(result.errorOutput.contains("TALLY_BROKERS") && result.errorOutput.contains("'127.0.0.1:5556'"))
    }
}

/// The binaries' options are their declared settings (which docs/operating.md's tables are checked against), plus
/// `--config`, `--help` and `--version`: none is added or renamed behind the declarations' back.
@Suite(.realProcesses) struct DeclaredSettingsTests {
    /// The long options a binary shows in `--help`, from ArgumentParser's own description of the command.
    /// - Parameter subcommand: the subcommand whose options these are (tally-gateway's `serve`, its default).
    func shownOptions(of binary: URL, subcommand: String? = nil) async throws -> Set<String> {
        let result = try await ShortCommand.run(binary, ["--experimental-dump-help"])
        let dump = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        var command = try #require(dump?["command"] as? [String: Any])
        if let subcommand {
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            command = try #require(subcommands.first { $0["commandName"] as? String == subcommand }, "\(subcommand)")
        }
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        var names: Set<String> = []
        for argument in arguments where argument["shouldDisplay"] as? Bool == true {
            for name in argument["names"] as? [[String: String]] ?? [] where name["kind"] == "long" {
                names.insert(name["name"] ?? "")
            }
        }
        return names
    }

    @Test func theBrokersOptionsAreItsDeclaredSettings() async throws {
        let shown = try await shownOptions(of: TallyBinaries.broker)
        #expect(shown.subtracting(["config", "help", "version"]) == BrokerSettings.catalog.names)
    }

    @Test func theWorkersOptionsAreItsDeclaredSettings() async throws {
        let shown = try await shownOptions(of: TallyBinaries.worker)
        #expect(shown.subtracting(["config", "help", "version"]) == WorkerSettings.catalog.names)
    }

    @Test func theGatewaysOptionsAreItsDeclaredSettings() async throws {
        let shown = try await shownOptions(of: TallyBinaries.gateway, subcommand: "serve")
        #expect(shown.subtracting(["config", "help", "version"]) == GatewaySettings.catalog.names)
    }
}
