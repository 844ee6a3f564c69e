import Majordomo
import TallyClient

/// `tally-gateway`'s settings. Its connection to the brokers is a client's (`ConnectionSettings`); the rest says
/// how it serves HTTP.
package enum GatewaySettings: MonitoredProgramSettings, CurveClientSettings {
    private static let client = TallyClientConfiguration(brokers: [])

    package static let listen = Setting(
        "listen",
        "HTTP address for the API (POST /v1/{method}, POST /v1, GET /openapi.json): HOST:PORT with an IPv4 "
            + "address, a host name or [IPv6]; loopback unless told otherwise, e.g. 0.0.0.0:8080 for every "
            + "interface.",
        default: "127.0.0.1:8080")
    package static let broker = ConnectionSettings.broker
    package static let timeout = Setting(
        "timeout", "How long a call may take, retries included, when the request names no Request-Timeout.",
        default: DurationArgument(client.timeout), check: .positive)
    package static let maxTimeout = Setting(
        "max-timeout",
        "The longest a call may take, whatever its Request-Timeout or deadline asks; also the longest the "
            + "gateway waits for an answer.",
        default: DurationArgument(.seconds(30)), check: .positive)
    package static let retries = Setting(
        "retries",
        "Further attempts of a call answered 'overloaded' or 'unavailable' or lost with its broker, within its time.",
        default: client.retries, check: .within(0...10))
    package static let maxBodyBytes = SharedSettings.maxBodyBytes(
        "Largest request body in bytes (the broker's limit by default); a larger one is answered 413 "
            + "'payload_too_large' before it is read whole.",
        default: BrokerConfiguration().maxBodyBytes)
    package static let maxHeaderBytes = Setting(
        "max-header-bytes",
        "Largest size of a request's headers, all together, in bytes; more is answered 400 and the connection "
            + "closed.",
        default: 16384, check: .within(1024...1_048_576))
    package static let maxConnections = Setting(
        "max-connections", "Most HTTP connections open at once; past it no more are accepted until one closes.",
        default: 4096, check: .within(1...1_000_000))
    package static let idleTimeout = Setting(
        "idle-timeout", "How long a keep-alive connection may wait for its next request before it is closed.",
        default: DurationArgument(.seconds(60)), check: .positive)
    package static let apiKeys = Setting(
        "api-keys",
        "File of API keys' SHA-256 digests, one 'NAME sha256:HEX' per line (tally-gateway api-key makes one): "
            + "calls must then send 'Authorization: Bearer KEY'.",
        default: "", shownDefault: "none asked")
    package static let tlsCertificate = Setting(
        "tls-certificate",
        "PEM file with the certificate chain to serve HTTPS with (with --tls-key); TLS 1.2 or later.",
        default: "", shownDefault: "plain HTTP")
    package static let tlsKey = Setting(
        "tls-key", "PEM file with the private key of --tls-certificate.", default: "", shownDefault: "none")
    package static let shutdownGrace = SharedSettings.shutdownGrace(
        "How long a graceful shutdown lets calls in progress finish before the rest are cut off.")
    package static let http = MonitoringSettings.http(example: 9102)
    package static let curveSecretKey = ConnectionSettings.curveSecretKey
    package static let curveServerKey = ConnectionSettings.curveServerKey

    package static let catalog = SettingCatalog(
        program: "tally-gateway",
        settings: [
            listen.documentation, broker.documentation, timeout.documentation, maxTimeout.documentation,
            retries.documentation,
        ] + BrokerHeartbeatOptions.settings + [
            maxBodyBytes.documentation, maxHeaderBytes.documentation, maxConnections.documentation,
            idleTimeout.documentation, apiKeys.documentation, tlsCertificate.documentation, tlsKey.documentation,
            shutdownGrace.documentation,
        ] + MonitoringOptions<GatewaySettings>.settings + CurveClientOptions<GatewaySettings>.settings
            + ProcessOptions.settings)
}
