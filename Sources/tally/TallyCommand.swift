import ArgumentParser
import Foundation
import TallyClient
import TallyCommandLine
import TallyProtocol
import ZeroMQ

@main
struct TallyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Talk to a running Tally: call any method, ping workers, ask the broker which services are up.",
        discussion: """
            Exit status, the same for every subcommand: 0 success; 2 Tally answered, with an error or with a service \
            down (404 from mmi, a down service in health); 3 no answer (timeout, no broker reached); 64 usage error.

            Examples:
              tally ping
              tally call history.month --params month.json
              echo '{"time_zone":"UTC","today":"2026-11-23","records":[]}' | tally call history.months --params -
              tally mmi tally.streak
              tally health
            """,
        version: TallyBuild.version,
        subcommands: [Call.self, Ping.self, MMI.self, Health.self, Keys.self])
}

/// Options every subcommand shares.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "Broker endpoint; repeat for several. [env: TALLY_BROKERS, comma-separated] (default: tcp://127.0.0.1:5555)"
    )
    var broker: [String] = []

    @Option(help: "How long to wait for an answer, retries included. [env: TALLY_TIMEOUT] (default: 5s)")
    var timeout: DurationArgument?

    @Option(help: "File with this client's CURVE secret key. [env: TALLY_CURVE_SECRET_KEY]")
    var curveSecretKey: String?

    @Option(help: "The broker's CURVE public key, or a file holding it. [env: TALLY_CURVE_SERVER_KEY]")
    var curveServerKey: String?

    /// A started client.
    func client() throws -> TallyClient {
        let settings = try SettingSources(configPath: nil, knownKeys: [])
        var configuration = TallyClientConfiguration(
            brokers: try EndpointOptions.check(
                try settings.resolve(
                    broker, "broker", environmentVariable: "TALLY_BROKERS", default: ["tcp://127.0.0.1:5555"]),
                option: "broker", variable: "TALLY_BROKERS", role: .connect))
        configuration.timeout = try settings.resolve(timeout, "timeout", default: DurationArgument(.seconds(5)))
            .duration
        let secretKey = try settings.resolve(curveSecretKey, "curve-secret-key", default: "")
        let serverKey = try settings.resolve(curveServerKey, "curve-server-key", default: "")
        if !secretKey.isEmpty || !serverKey.isEmpty {
            guard !secretKey.isEmpty, !serverKey.isEmpty else {
                throw ValidationError("CURVE needs --curve-secret-key and --curve-server-key together")
            }
            do {
                configuration.security = try .curve(clientSecretKeyFile: secretKey, serverPublicKey: serverKey)
            } catch {
                throw ValidationError(error.message)
            }
        }
        let client = try TallyClient(configuration: configuration)
        try client.start()
        return client
    }
}

/// Exit statuses a script can rely on.
enum Status {
    static let tallyError = ExitCode(2)
    static let noAnswer = ExitCode(3)

    static func exitCode(for error: TallyClientError) -> ExitCode {
        error.isFromServer ? tallyError : noAnswer
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data(("tally: " + text + "\n").utf8))
}
