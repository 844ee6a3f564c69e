import TallyClient
import ZeroMQ

/// How the programs that connect to brokers (`tally`, `tally-load`, and `tally-worker` for its first and last)
/// reach them.
package enum ConnectionSettings: CurveClientSettings {
    package static let broker = Setting(
        list: "broker", "Broker endpoint; repeat for several.", default: ["tcp://127.0.0.1:5555"],
        environmentVariable: "TALLY_BROKERS", check: .endpoints(.connect))
    package static let timeout = Setting(
        "timeout", "How long to wait for an answer, retries included.",
        default: DurationArgument(TallyClientConfiguration(brokers: []).timeout), check: .positive)
    package static let brokerHeartbeat = Setting(
        "broker-heartbeat",
        "How often each broker connection is sent a heartbeat (ZMTP PING); 0 for none (then a broker whose host "
            + "vanishes is noticed only when TCP gives up, minutes later).",
        default: DurationArgument(TallyClientConfiguration(brokers: []).heartbeatInterval ?? .zero))
    package static let brokerTimeout = Setting(
        "broker-timeout",
        "How long a broker may answer nothing after a heartbeat (or a connection attempt) before it is taken for lost "
            + "and the calls it held are sent to another broker.",
        default: DurationArgument(TallyClientConfiguration(brokers: []).heartbeatTimeout), check: .positive)
    package static let curveSecretKey = SharedSettings.curveSecretKey("File with this client's CURVE secret key.")
    package static let curveServerKey = Setting(
        "curve-server-key", "The broker's CURVE public key, or a file holding it.", default: "",
        shownDefault: "none")

    /// What `tally` reads from flags and the environment (it takes no configuration file).
    package static let catalog = SettingCatalog(
        program: "tally",
        settings: [broker.documentation, timeout.documentation] + BrokerHeartbeatOptions.settings
            + CurveClientOptions<ConnectionSettings>.settings)
}
