import ArgumentParser
import Foundation
import Logging
import Majordomo
import ServiceLifecycle
import TallyBroker
import TallyCommandLine
import TallyMonitoring
import TallyProtocol
import UnixSignals
import ZeroMQ

@main
struct TallyBrokerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally-broker",
        abstract: "The Tally broker: receives client requests and balances them over tally-worker processes.",
        discussion: """
            Speaks the Majordomo Protocol 0.1 (ZeroMQ RFC 7) with MMI (RFC 8) on one ROUTER socket: clients and \
            workers connect to the same endpoint. Requests queue per service and go to the least recently used \
            idle worker; a request whose worker dies is re-queued; every request gets exactly one answer.

            Every option can also come from the environment variable named in its help, or from a JSON \
            configuration file (--config) whose keys are the option names: flags win over the environment, \
            which wins over the file, which wins over the defaults.
            On SIGTERM or SIGINT the broker stops taking requests, lets queued and running ones finish for the \
            shutdown grace, answers the rest and exits.

            Example:
              tally-broker --bind tcp://*:5555
            """,
        version: TallyBuild.version)

    @Option(
        name: .long,
        help: "Endpoint to bind; repeat for several. [env: TALLY_BIND, comma-separated] (default: tcp://*:5555)")
    var bind: [String] = []

    @Option(help: "How often to heartbeat each worker. [env: TALLY_HEARTBEAT_INTERVAL] (default: 2500ms)")
    var heartbeatInterval: DurationArgument?

    @Option(
        help:
            "Missed heartbeats after which a worker is dead and its request re-queued. [env: TALLY_HEARTBEAT_LIVENESS] (default: 3)"
    )
    var heartbeatLiveness: Int?

    @Option(
        help:
            "How long a request may wait for a worker before it is answered 'unavailable'. [env: TALLY_QUEUE_TIMEOUT] (default: 10s)"
    )
    var queueTimeout: DurationArgument?

    @Option(
        help:
            "How long requests for a service without workers wait for some after the broker starts or the service's last worker leaves; past it they are answered 'unavailable' at once. [env: TALLY_SERVICE_GRACE] (default: 10s)"
    )
    var serviceGrace: DurationArgument?

    @Option(
        help:
            "How long a worker may hold a request before the broker answers it 'unavailable' and disconnects the worker. [env: TALLY_REQUEST_TIMEOUT] (default: 60s)"
    )
    var requestTimeout: DurationArgument?

    @Option(
        help:
            "Requests queued per service before new ones are answered 'overloaded'. [env: TALLY_MAX_QUEUE] (default: 10000)"
    )
    var maxQueue: Int?

    @Option(
        help:
            "Times one request is sent to a worker before a lost request is answered 'unavailable'. [env: TALLY_MAX_ATTEMPTS] (default: 3)"
    )
    var maxAttempts: Int?

    @Option(
        help:
            "Largest request body in bytes; larger ones are answered 'payload_too_large'. [env: TALLY_MAX_BODY_BYTES] (default: 1048576)"
    )
    var maxBodyBytes: Int?

    @Option(
        help:
            "How long a graceful shutdown lets queued and running requests finish. [env: TALLY_SHUTDOWN_GRACE] (default: 10s)"
    )
    var shutdownGrace: DurationArgument?

    @Option(
        help:
            "HTTP address for /metrics, /livez and /readyz: HOST:PORT with an IPv4 address, a host name or [IPv6], e.g. 0.0.0.0:9100, localhost:9100, [::]:9100. [env: TALLY_HTTP] (default: off)"
    )
    var http: String?

    @Option(
        help:
            "File with the broker's CURVE secret key: turns on encryption and authentication. [env: TALLY_CURVE_SECRET_KEY] (default: plaintext)"
    )
    var curveSecretKey: String?

    @Option(help: "File listing the CURVE public keys of allowed clients, one per line. [env: TALLY_CURVE_CLIENT_KEYS]")
    var curveClientKeys: String?

    @Option(help: "File listing the CURVE public keys of allowed workers, one per line. [env: TALLY_CURVE_WORKER_KEYS]")
    var curveWorkerKeys: String?

    @Option(help: "JSON configuration file; keys are option names. [env: TALLY_CONFIG]")
    var config: String?

    @OptionGroup var logging: LoggingOptions

    static let settingNames: Set<String> = [
        "bind", "heartbeat-interval", "heartbeat-liveness", "queue-timeout", "service-grace", "request-timeout",
        "max-queue",
        "max-attempts",
        "max-body-bytes", "shutdown-grace", "http", "log-level", "log-format", "curve-secret-key", "curve-client-keys",
        "curve-worker-keys",
    ]

    func run() async throws {
        ParentWatch.start()
        let settings = try SettingSources(configPath: config, knownKeys: Self.settingNames)
        let log = try logging.bootstrap(label: "tally.broker", settings: settings)
        try await log.run { try await serve(settings: settings, logger: log.logger) }
    }

    /// Everything after logging is set up: with JSON logs, an error thrown here is logged as JSON (``ProcessLog``).
    func serve(settings: SettingSources, logger: Logger) async throws {
        var configuration = BrokerConfiguration()
        configuration.heartbeatInterval = try settings.resolve(
            heartbeatInterval, "heartbeat-interval", default: DurationArgument(.milliseconds(2500))
        ).duration
        configuration.heartbeatLiveness = try settings.resolve(heartbeatLiveness, "heartbeat-liveness", default: 3)
        configuration.queueTimeout = try settings.resolve(
            queueTimeout, "queue-timeout", default: DurationArgument(.seconds(10))
        ).duration
        configuration.serviceGrace = try settings.resolve(
            serviceGrace, "service-grace", default: DurationArgument(.seconds(10))
        ).duration
        configuration.requestTimeout = try settings.resolve(
            requestTimeout, "request-timeout", default: DurationArgument(.seconds(60))
        ).duration
        configuration.maxQueuedPerService = try settings.resolve(maxQueue, "max-queue", default: 10_000)
        configuration.maxAttempts = try settings.resolve(maxAttempts, "max-attempts", default: 3)
        configuration.maxBodyBytes = try settings.resolve(maxBodyBytes, "max-body-bytes", default: 1 << 20)
        let grace = try settings.resolve(shutdownGrace, "shutdown-grace", default: DurationArgument(.seconds(10)))
            .duration
        let endpoints = try EndpointOptions.check(
            try settings.resolve(bind, "bind", default: ["tcp://*:5555"]), option: "bind", variable: "TALLY_BIND",
            role: .bind)
        let httpAddress = try settings.resolve(http, "http", default: "")
        try Self.check(configuration)
        let monitoringAddress = try MonitoringOptions.validated(httpAddress).map {
            MonitoringServer.Address(host: $0.host, port: $0.port)
        }
        let security = try Self.security(
            secretKey: try settings.resolve(curveSecretKey, "curve-secret-key", default: ""),
            clientKeys: try settings.resolve(curveClientKeys, "curve-client-keys", default: ""),
            workerKeys: try settings.resolve(curveWorkerKeys, "curve-worker-keys", default: ""))

        let metrics = monitoringAddress.map { _ in
            PrometheusMetrics.bootstrap(help: BrokerMetrics.help, version: TallyBuild.version)
        }
        let brokerMetrics = metrics.map { _ in BrokerMetrics() }
        var observer: (@Sendable (BrokerEvent) -> Void)?
        if let brokerMetrics { observer = { event in brokerMetrics.record(event) } }
        let broker = try Broker(
            configuration: configuration, endpoints: endpoints, envelope: TallyEnvelope(),
            security: security, observer: observer, logger: logger)
        if let security {
            logger.info("CURVE on", metadata: ["curve.public_key": "\(security.keyPair.publicKey)"])
        } else {
            logger.notice("CURVE off: traffic is plaintext and any peer may connect (trusted networks only)")
        }
        var services: [any Service] = []
        // Before the broker binds: an HTTP address that cannot be listened on stops the process at start.
        if let monitoringAddress, let metrics, let brokerMetrics {
            let monitoring = try MonitoringServer(
                address: monitoringAddress, metrics: metrics,
                beforeScrape: { brokerMetrics.update(await broker.snapshot()) },
                readiness: { await !broker.snapshot().isDraining },
                logger: logger)
            services.append(monitoring)
        }
        let bound = try broker.start()
        services.append(BrokerService(broker: broker, gracePeriod: grace))
        // One line on standard output saying where the broker listens: scripts and tests read it.
        announce("tally-broker \(TallyBuild.version) listening on \(bound.joined(separator: " "))")
        // Services shut down in reverse order: the broker drains first, the HTTP endpoint goes last.
        let group = ServiceGroup(
            configuration: .init(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// CURVE settings: all three files, or none.
    static func security(secretKey: String, clientKeys: String, workerKeys: String) throws -> BrokerSecurity? {
        guard !secretKey.isEmpty || !clientKeys.isEmpty || !workerKeys.isEmpty else { return nil }
        guard !secretKey.isEmpty, !clientKeys.isEmpty, !workerKeys.isEmpty else {
            throw ValidationError(
                "CURVE needs --curve-secret-key, --curve-client-keys and --curve-worker-keys together")
        }
        do {
            return BrokerSecurity.allowList(
                keyPair: try CurveKeyFile.readSecret(secretKey),
                clientKeys: try CurveKeyFile.readPublicKeys(clientKeys),
                workerKeys: try CurveKeyFile.readPublicKeys(workerKeys))
        } catch {
            throw ValidationError("\(error)")
        }
    }

    static func check(_ configuration: BrokerConfiguration) throws {
        guard configuration.heartbeatInterval >= .milliseconds(10) else {
            throw ValidationError("--heartbeat-interval must be at least 10ms")
        }
        guard configuration.heartbeatLiveness >= 1 else {
            throw ValidationError("--heartbeat-liveness must be at least 1")
        }
        guard configuration.queueTimeout > .zero else { throw ValidationError("--queue-timeout must be positive") }
        guard configuration.serviceGrace >= .zero else { throw ValidationError("--service-grace must not be negative") }
        guard configuration.requestTimeout > .zero else { throw ValidationError("--request-timeout must be positive") }
        guard configuration.maxQueuedPerService >= 1 else { throw ValidationError("--max-queue must be at least 1") }
        guard configuration.maxAttempts >= 1 else { throw ValidationError("--max-attempts must be at least 1") }
        guard configuration.maxBodyBytes >= 64 else { throw ValidationError("--max-body-bytes must be at least 64") }
    }
}
