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
            down (404 from mmi, a down service in health), or with a reply that is not Tally's; 3 no answer (timeout, \
            no broker reached); 4 a local error, nothing sent (a key file that cannot be read, a configuration that \
            cannot work, a request that cannot be encoded); 64 usage error. With --json, every subcommand prints one \
            JSON document on standard output, its failures included ({"error": {"code", "message"}, "answered"}).

            Examples:
              tally ping --json
              tally call history.month --params month.json
              tally call history.months -d '\(Call.exampleParams)'
              echo '\(Call.exampleParams)' | tally call history.months --params -
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

    @OptionGroup var brokerHeartbeat: BrokerHeartbeatOptions

    @OptionGroup var curve: CurveClientOptions<ConnectionSettings>

    static let settings = ConnectionSettings.catalog

    /// The client's configuration, from the flags, the environment and the defaults.
    /// - Throws: `ValidationError` for a setting that cannot be read; `TallyClientError` (`invalid_configuration`)
    ///   for CURVE keys that cannot be used.
    func configuration() throws -> TallyClientConfiguration {
        let settings = try SettingSources(configPath: nil, catalog: Self.settings)
        var configuration = TallyClientConfiguration(brokers: try settings.resolve(broker, ConnectionSettings.broker))
        configuration.timeout = try settings.resolve(timeout, ConnectionSettings.timeout).duration
        try brokerHeartbeat.apply(settings, to: &configuration)
        configuration.security = try curve.security(settings) ?? .plaintext
        return configuration
    }

    /// A started client of `configuration` (by default the flags'). A configuration the client refuses is reported
    /// as a local error (exit 4), in JSON too when `json`.
    func client(_ configuration: TallyClientConfiguration? = nil, json: Bool) throws -> TallyClient {
        do {
            let client = try TallyClient(configuration: try configuration ?? self.configuration())
            try client.start()
            return client
        } catch let error as TallyClientError {
            throw Output.fail(error, json: json)
        }
    }
}

/// Exit statuses a script can rely on.
enum Status {
    /// Tally answered, but not with success: an error response, a service down, a reply that is not Tally's.
    static let tallyError = ExitCode(2)
    /// Nothing answered: a timeout, no broker reached.
    static let noAnswer = ExitCode(3)
    /// Nothing was sent: the failure is here (a configuration or key that cannot work, a request that cannot be
    /// encoded, the client stopped or the command cancelled).
    static let localError = ExitCode(4)

    static func exitCode(for error: TallyClientError) -> ExitCode {
        if error.isFromServer || error.code == .invalidResponse { return tallyError }
        switch error.code {
        case .timeout: return noAnswer
        default: return localError
        }
    }
}
