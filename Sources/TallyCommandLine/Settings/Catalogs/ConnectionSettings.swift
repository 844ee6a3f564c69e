import TallyClient
import ZeroMQ

/// How the programs that connect to brokers (`tally`, `tally-load`, and `tally-worker` for its first and last)
/// reach them.
package enum ConnectionSettings {
    package static let broker = Setting(
        list: "broker", "Broker endpoint; repeat for several.", default: ["tcp://127.0.0.1:5555"],
        environmentVariable: "TALLY_BROKERS", check: .endpoints(.connect))
    package static let timeout = Setting(
        "timeout", "How long to wait for an answer, retries included.",
        default: DurationArgument(TallyClientConfiguration(brokers: []).timeout), check: .positive)
    package static let curveSecretKey = Setting(
        "curve-secret-key", "File with this client's CURVE secret key.", default: "", shownDefault: "plaintext")
    package static let curveServerKey = Setting(
        "curve-server-key", "The broker's CURVE public key, or a file holding it.", default: "",
        shownDefault: "none")
}
