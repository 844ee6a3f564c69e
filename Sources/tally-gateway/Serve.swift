import ArgumentParser
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import TallyClient
import TallyCommandLine
import TallyGateway
import TallyMonitoring
import TallyProtocol

/// `tally-gateway [serve]`: the gateway itself.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve HTTP (the default: `tally-gateway --listen …` is `tally-gateway serve --listen …`).")

    @Option(name: GatewaySettings.listen.flag, help: GatewaySettings.listen.help)
    var listen: String?

    @Option(name: GatewaySettings.broker.flag, help: GatewaySettings.broker.help)
    var broker: [String] = []

    @Option(name: GatewaySettings.timeout.flag, help: GatewaySettings.timeout.help)
    var timeout: DurationArgument?

    @Option(name: GatewaySettings.maxTimeout.flag, help: GatewaySettings.maxTimeout.help)
    var maxTimeout: DurationArgument?

    @Option(name: GatewaySettings.retries.flag, help: GatewaySettings.retries.help)
    var retries: Int?

    @OptionGroup var brokerHeartbeat: BrokerHeartbeatOptions

    @Option(name: GatewaySettings.maxBodyBytes.flag, help: GatewaySettings.maxBodyBytes.help)
    var maxBodyBytes: Int?

    @Option(name: GatewaySettings.maxHeaderBytes.flag, help: GatewaySettings.maxHeaderBytes.help)
    var maxHeaderBytes: Int?

    @Option(name: GatewaySettings.maxConnections.flag, help: GatewaySettings.maxConnections.help)
    var maxConnections: Int?

    @Option(name: GatewaySettings.idleTimeout.flag, help: GatewaySettings.idleTimeout.help)
    var idleTimeout: DurationArgument?

    @Option(name: GatewaySettings.apiKeys.flag, help: GatewaySettings.apiKeys.help)
    var apiKeys: String?

    @Option(name: GatewaySettings.tlsCertificate.flag, help: GatewaySettings.tlsCertificate.help)
    var tlsCertificate: String?

    @Option(name: GatewaySettings.tlsKey.flag, help: GatewaySettings.tlsKey.help)
    var tlsKey: String?

    @Option(name: GatewaySettings.shutdownGrace.flag, help: GatewaySettings.shutdownGrace.help)
    var shutdownGrace: DurationArgument?

    @OptionGroup var monitoring: MonitoringOptions<GatewaySettings>

    @OptionGroup var curve: CurveClientOptions<GatewaySettings>

    @OptionGroup var process: ProcessOptions

    func run() async throws {
        try await process.run(label: "tally.gateway", catalog: GatewaySettings.catalog, serve)
    }

    /// Everything after logging is set up: with JSON logs, an error thrown here is logged as JSON (``ProcessLog``).
    func serve(settings: SettingSources, logger: Logger) async throws {
        let listenText = try settings.resolve(listen, GatewaySettings.listen)
        let address: HostAndPort
        do {
            address = try HostAndPort(parsing: listenText)
        } catch {
            throw ValidationError(
                "--listen (or TALLY_LISTEN) '\(listenText)': \(error); write HOST:PORT, e.g. 127.0.0.1:8080, "
                    + "0.0.0.0:8080 or [::1]:8080")
        }
        let timeouts = Timeouts(
            defaultTimeout: try settings.resolve(timeout, GatewaySettings.timeout).duration,
            maximum: try settings.resolve(maxTimeout, GatewaySettings.maxTimeout).duration)
        var gateway = GatewayConfiguration(
            host: address.host, port: Int(address.port),
            maxBodyBytes: try settings.resolve(maxBodyBytes, GatewaySettings.maxBodyBytes),
            maxHeaderBytes: try settings.resolve(maxHeaderBytes, GatewaySettings.maxHeaderBytes),
            maxConnections: try settings.resolve(maxConnections, GatewaySettings.maxConnections),
            idleTimeout: try settings.resolve(idleTimeout, GatewaySettings.idleTimeout).duration,
            timeouts: timeouts)
        let keysFile = try settings.resolve(apiKeys, GatewaySettings.apiKeys)
        if !keysFile.isEmpty {
            do {
                gateway.apiKeys = try APIKeys(contentsOf: keysFile)
            } catch {
                throw ValidationError("--api-keys (or TALLY_API_KEYS): \(error)")
            }
        }
        gateway.tls = try GatewayTLS.configuration(
            certificate: try settings.resolve(tlsCertificate, GatewaySettings.tlsCertificate),
            key: try settings.resolve(tlsKey, GatewaySettings.tlsKey))
        let client = try clientConfiguration(settings, timeouts: timeouts)
        let grace = try settings.resolve(shutdownGrace, GatewaySettings.shutdownGrace).duration
        let monitoringAddress = try monitoring.address(settings)
        let tracing = try process.startTracing(
            settings: settings, serviceName: "tally-gateway", version: TallyBuild.version, logger: logger)

        let metrics = monitoringAddress.map { _ in
            PrometheusMetrics.bootstrap(help: GatewayMetrics.help, version: TallyBuild.version)
        }
        let tally = try TallyClient(configuration: client, logger: logger)
        let scheme = gateway.tls == nil ? "http" : "https"
        let service = Gateway(
            configuration: gateway, client: tally,
            metrics: metrics.map { _ in GatewayMetrics(methods: TallyMethods.v1.map { $0.name }) }, logger: logger
        ) { bound in
            // One line on standard output saying where the gateway listens: scripts and tests read it.
            announce("tally-gateway \(TallyBuild.version) listening on \(scheme)://\(Self.text(bound))")
        }
        if gateway.apiKeys == nil {
            logger.notice("no API keys asked: anyone who reaches the listening address may call")
        }
        // Services shut down in reverse order: the HTTP server stops first, the client last.
        var services: [any Service] = [tally]
        if let monitoringAddress, let metrics {
            services.append(
                try MonitoringServer(
                    address: monitoringAddress, metrics: metrics,
                    readiness: { await Readiness.servicesAvailable(through: tally) }, logger: logger))
        }
        services.append(service)
        try await process.runServiceGroup(
            services.map { .init(service: $0) }, tracing: tracing, logger: logger, shutdownLimit: grace)
    }

    /// The TallyClient every call goes through, from the connection settings.
    func clientConfiguration(_ settings: SettingSources, timeouts: Timeouts) throws -> TallyClientConfiguration {
        var configuration = TallyClientConfiguration(brokers: try settings.resolve(broker, GatewaySettings.broker))
        configuration.timeout = timeouts.defaultTimeout
        configuration.retries = try settings.resolve(retries, GatewaySettings.retries)
        try brokerHeartbeat.apply(settings, to: &configuration)
        do {
            configuration.security = try curve.security(settings) ?? .plaintext
        } catch let error as TallyClientError {
            throw ValidationError("\(error)")
        }
        return configuration
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    static func text(_ address: SocketAddress) -> String {
        let host = address.ipAddress ?? "?"
        let port = address.port.map(String.init) ?? "?"
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
