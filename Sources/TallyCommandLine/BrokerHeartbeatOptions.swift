import ArgumentParser
import TallyClient

/// `--broker-heartbeat` and `--broker-timeout`: how a client watches each of its broker connections, the same in
/// every program that calls Tally (`tally`, `tally-load`, `tally-gateway`).
package struct BrokerHeartbeatOptions: ParsableArguments {
    @Option(name: ConnectionSettings.brokerHeartbeat.flag, help: ConnectionSettings.brokerHeartbeat.help)
    var brokerHeartbeat: DurationArgument?

    @Option(name: ConnectionSettings.brokerTimeout.flag, help: ConnectionSettings.brokerTimeout.help)
    var brokerTimeout: DurationArgument?

    package init() {}

    /// The settings these options read, in their order, for the catalog of every program that takes them.
    package static let settings = [
        ConnectionSettings.brokerHeartbeat.documentation, ConnectionSettings.brokerTimeout.documentation,
    ]

    /// Sets what the settings say on a client's configuration (a heartbeat of 0: none).
    package func apply(_ settings: SettingSources, to configuration: inout TallyClientConfiguration) throws {
        let heartbeat = try settings.resolve(brokerHeartbeat, ConnectionSettings.brokerHeartbeat)
        let timeout = try settings.resolve(brokerTimeout, ConnectionSettings.brokerTimeout)
        configuration.heartbeatInterval = heartbeat.duration > .zero ? heartbeat.duration : nil
        configuration.heartbeatTimeout = timeout.duration
    }
}
