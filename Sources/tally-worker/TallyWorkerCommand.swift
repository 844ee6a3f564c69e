import ArgumentParser
import Foundation
import Logging
import Majordomo
import ServiceLifecycle
import TallyCommandLine
import TallyMonitoring
import TallyProtocol
import ZeroMQ
import UnixSignals
import TallyWorker

@main
struct TallyWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally-worker",
        abstract: "A Tally worker: computes step history, streak and workout summaries for requests from tally-broker.",
        discussion: """
            Connects to every broker given and registers each service there over one MDP connection per I/O thread \
            (--connections), each offering the broker credit for a share of --concurrency requests at once; the \
            --io-threads threads compute the requests, so one process computes several at once and holds more \
            ready. Reconnects by itself when a broker goes away. Run as many workers, on as many hosts, as the \
            load needs.

            Every option can also come from the environment variable named in its help, or from a JSON \
            configuration file (--config) whose keys are the option names: flags win over the environment, \
            which wins over the file, which wins over the defaults.
            On SIGTERM or SIGINT the worker stops taking requests, finishes those it holds, says DISCONNECT and exits.

            Example:
              tally-worker --broker tcp://127.0.0.1:5555 --concurrency 16 --io-threads 2
            """,
        version: TallyBuild.version)

    @Option(
        name: .long,
        help:
            "Broker endpoint; repeat to serve several brokers. [env: TALLY_BROKERS, comma-separated] (default: tcp://127.0.0.1:5555)"
    )
    var broker: [String] = []

    @Option(
        name: .long,
        help:
            "MDP service to serve; repeat for several. [env: TALLY_SERVICES] (default: tally.history, tally.streak, tally.workout)"
    )
    var service: [String] = []

    @Option(
        help:
            "Requests of each service this process holds at once per broker, computing or ready: the credit its connections offer together. [env: TALLY_CONCURRENCY] (default: 16)"
    )
    var concurrency: Int?

    @Option(
        help:
            "MDP connections per service per broker, 0 for one per I/O thread. A broker that speaks plain MDP/0.1 sends one request per connection at a time: against one, set this to --concurrency. [env: TALLY_CONNECTIONS] (default: 0)"
    )
    var connections: Int?

    @Option(
        help:
            "Threads the MDP connections are spread over; requests compute on them, so this is how many compute at once. 0 for one per processor core. [env: TALLY_IO_THREADS] (default: 0)"
    )
    var ioThreads: Int?

    @Option(help: "How often to heartbeat the broker. [env: TALLY_HEARTBEAT_INTERVAL] (default: 2500ms)")
    var heartbeatInterval: DurationArgument?

    @Option(
        help: "Missed broker heartbeats after which the worker reconnects. [env: TALLY_HEARTBEAT_LIVENESS] (default: 3)"
    )
    var heartbeatLiveness: Int?

    @Option(help: "Pause before reconnecting to a broker. [env: TALLY_RECONNECT_DELAY] (default: 1s)")
    var reconnectDelay: DurationArgument?

    @Option(help: "Largest request body in bytes. [env: TALLY_MAX_BODY_BYTES] (default: 1048576)")
    var maxBodyBytes: Int?

    @Option(
        help:
            "Most elements in any list of a request (records, workouts…). [env: TALLY_MAX_LIST_ELEMENTS] (default: 20000)"
    )
    var maxListElements: Int?

    @Option(
        help: "How long a graceful shutdown waits for requests in progress. [env: TALLY_SHUTDOWN_GRACE] (default: 10s)")
    var shutdownGrace: DurationArgument?

    @Option(help: ArgumentHelp("Fault drills only: pause before computing each request.", visibility: .hidden))
    var simulatedLatency: DurationArgument?

    @Option(
        help:
            "HTTP address for /metrics, /livez and /readyz: HOST:PORT with an IPv4 address, a host name or [IPv6], e.g. 0.0.0.0:9101, localhost:9101, [::]:9101. [env: TALLY_HTTP] (default: off)"
    )
    var http: String?

    @Option(
        help:
            "File with this worker's CURVE secret key (its public key must be in the broker's worker list). [env: TALLY_CURVE_SECRET_KEY]"
    )
    var curveSecretKey: String?

    @Option(help: "The broker's CURVE public key, or a file holding it. [env: TALLY_CURVE_SERVER_KEY]")
    var curveServerKey: String?

    @Option(help: "JSON configuration file; keys are option names. [env: TALLY_CONFIG]")
    var config: String?

    @OptionGroup var logging: LoggingOptions

    static let settingNames: Set<String> = [
        "broker", "service", "concurrency", "connections", "io-threads", "heartbeat-interval", "heartbeat-liveness",
        "reconnect-delay", "max-body-bytes", "max-list-elements", "shutdown-grace", "http", "log-level", "log-format",
        "curve-secret-key",
        "curve-server-key",
    ]

    func run() async throws {
        MallocTuning.keepRequestBuffers()
        ParentWatch.start()
        let settings = try SettingSources(configPath: config, knownKeys: Self.settingNames)
        let log = try logging.bootstrap(label: "tally.worker", settings: settings)
        try await log.run { try await serve(settings: settings, logger: log.logger) }
    }

    /// Everything after logging is set up: with JSON logs, an error thrown here is logged as JSON (``ProcessLog``).
    func serve(settings: SettingSources, logger: Logger) async throws {
        let brokers = try EndpointOptions.check(
            try settings.resolve(
                broker, "broker", environmentVariable: "TALLY_BROKERS", default: ["tcp://127.0.0.1:5555"]),
            option: "broker", variable: "TALLY_BROKERS", role: .connect)
        let services = try settings.resolve(
            service, "service", environmentVariable: "TALLY_SERVICES",
            default: TallyService.domainServices.map(\.rawValue))
        var configuration = WorkerConfiguration(brokers: brokers, services: services)
        configuration.concurrency = try settings.resolve(concurrency, "concurrency", default: 16)
        let connections = try settings.resolve(connections, "connections", default: 0)
        guard (0...256).contains(connections) else { throw ValidationError("--connections must be 0...256") }
        configuration.connections = connections == 0 ? nil : connections
        let ioThreads = try settings.resolve(ioThreads, "io-threads", default: 0)
        guard (0...256).contains(ioThreads) else { throw ValidationError("--io-threads must be 0...256") }
        configuration.ioThreads = ioThreads == 0 ? nil : ioThreads
        configuration.heartbeatInterval = try settings.resolve(
            heartbeatInterval, "heartbeat-interval", default: DurationArgument(.milliseconds(2500))
        ).duration
        configuration.heartbeatLiveness = try settings.resolve(heartbeatLiveness, "heartbeat-liveness", default: 3)
        configuration.reconnectDelay = try settings.resolve(
            reconnectDelay, "reconnect-delay", default: DurationArgument(.seconds(1))
        ).duration
        let limits = RequestLimits(
            maxBodyBytes: try settings.resolve(maxBodyBytes, "max-body-bytes", default: 1 << 20),
            maxListElements: try settings.resolve(maxListElements, "max-list-elements", default: 20_000))
        let grace = try settings.resolve(shutdownGrace, "shutdown-grace", default: DurationArgument(.seconds(10)))
            .duration
        let monitoringAddress = try MonitoringOptions.validated(try settings.resolve(http, "http", default: ""))
            .map { MonitoringServer.Address(host: $0.host, port: $0.port) }
        try Self.check(configuration, limits: limits)
        let socketSetup = try CurveClientOptions.socketSetup(
            secretKey: try settings.resolve(curveSecretKey, "curve-secret-key", default: ""),
            serverKey: try settings.resolve(curveServerKey, "curve-server-key", default: ""))

        var registry = MethodRegistry.allMethods(identity: .current(version: TallyBuild.version))
        #if DEBUG
        registry.registerTestFaults()
        #endif
        let dispatcher = registry.dispatcher(limits: limits)
        let metrics = monitoringAddress.map { _ in
            PrometheusMetrics.bootstrap(help: WorkerMetrics.help, version: TallyBuild.version)
        }
        let service = try WorkerService(
            configuration: configuration, dispatcher: dispatcher, gracePeriod: grace,
            simulatedLatency: simulatedLatency?.duration ?? .zero,
            metrics: metrics.map { _ in WorkerMetrics(methods: dispatcher.methodNames) }, socketSetup: socketSetup,
            logger: logger)
        var lifecycle: [any Service] = []
        if let monitoringAddress, let metrics {
            let worker = service.worker
            lifecycle.append(
                try MonitoringServer(
                    address: monitoringAddress, metrics: metrics, readiness: { await worker.status().isReady },
                    logger: logger))
        }
        lifecycle.append(service)
        announce(
            "tally-worker \(TallyBuild.version) serving \(services.joined(separator: ",")) via \(brokers.joined(separator: " ")) with concurrency \(configuration.concurrency) on \(service.worker.ioThreadCount) I/O threads"
        )
        let group = ServiceGroup(
            configuration: .init(
                services: lifecycle, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    static func check(_ configuration: WorkerConfiguration, limits: RequestLimits) throws {
        guard !configuration.brokers.isEmpty else { throw ValidationError("give at least one --broker") }
        guard !configuration.services.isEmpty else { throw ValidationError("give at least one --service") }
        for service in configuration.services
        where service.isEmpty || service.hasPrefix("mmi.") || service.utf8.count > 255 {
            throw ValidationError("'\(service)' is not a service a worker can serve")
        }
        guard (1...256).contains(configuration.concurrency) else {
            throw ValidationError("--concurrency must be 1...256")
        }
        guard configuration.heartbeatInterval >= .milliseconds(10) else {
            throw ValidationError("--heartbeat-interval must be at least 10ms")
        }
        guard configuration.heartbeatLiveness >= 1 else {
            throw ValidationError("--heartbeat-liveness must be at least 1")
        }
        guard limits.maxBodyBytes >= 64 else { throw ValidationError("--max-body-bytes must be at least 64") }
        guard limits.maxListElements >= 1 else { throw ValidationError("--max-list-elements must be at least 1") }
    }
}
