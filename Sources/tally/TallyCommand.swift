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
        abstract:
            "Talk to a running Tally: call any method, ping workers, ask what each service serves and which are up.",
        discussion: """
            Exit status, the same for every subcommand: 0 success; 2 Tally answered, with an error or with a service \
            down (404 from mmi, a down service in health); 3 no answer (timeout, no broker reached); 64 usage error.

            Examples:
              tally ping
              tally call history.month --params month.json
              echo '{"time_zone":"UTC","today":"2026-11-23","records":[]}' | tally call history.months --params -
              tally mmi tally.streak
              tally health
              tally describe --service tally.streak
              tally top --http 127.0.0.1:9100
            """,
        version: TallyBuild.version,
        subcommands: [Call.self, Ping.self, Describe.self, MMI.self, Health.self, Top.self, Keys.self])
}

/// Options every subcommand shares.
struct ConnectionOptions: ParsableArguments {
    @Option(name: ConnectionSettings.broker.flag, help: ConnectionSettings.broker.help)
    var broker: [String] = []

    @Option(name: ConnectionSettings.timeout.flag, help: ConnectionSettings.timeout.help)
    var timeout: DurationArgument?

    @Option(name: ConnectionSettings.brokerHeartbeat.flag, help: ConnectionSettings.brokerHeartbeat.help)
    var brokerHeartbeat: DurationArgument?

    @Option(name: ConnectionSettings.brokerTimeout.flag, help: ConnectionSettings.brokerTimeout.help)
    var brokerTimeout: DurationArgument?

    @Option(name: ConnectionSettings.curveSecretKey.flag, help: ConnectionSettings.curveSecretKey.help)
    var curveSecretKey: String?

    @Option(name: ConnectionSettings.curveServerKey.flag, help: ConnectionSettings.curveServerKey.help)
    var curveServerKey: String?

    static let settings = ConnectionSettings.catalog

    /// A started client.
    func client() throws -> TallyClient {
        let settings = try SettingSources(configPath: nil, catalog: Self.settings)
        var configuration = TallyClientConfiguration(brokers: try settings.resolve(broker, ConnectionSettings.broker))
        configuration.timeout = try settings.resolve(timeout, ConnectionSettings.timeout).duration
        ConnectionSettings.apply(
            heartbeat: try settings.resolve(brokerHeartbeat, ConnectionSettings.brokerHeartbeat),
            timeout: try settings.resolve(brokerTimeout, ConnectionSettings.brokerTimeout), to: &configuration)
        let curve = try CurveClientOptions.given(
            secretKey: try settings.resolve(curveSecretKey, ConnectionSettings.curveSecretKey),
            serverKey: try settings.resolve(curveServerKey, ConnectionSettings.curveServerKey))
        if let curve {
            do {
                configuration.security = try .curve(
                    clientSecretKeyFile: curve.secretKey, serverPublicKey: curve.serverKey)
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
