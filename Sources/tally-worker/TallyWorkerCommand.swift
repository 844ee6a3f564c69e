import ArgumentParser
import Foundation
import Logging
import Majordomo
import ServiceLifecycle
import TallyCommandLine
import TallyMonitoring
import TallyProtocol
import ZeroMQ
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

    @Option(name: WorkerSettings.broker.flag, help: WorkerSettings.broker.help)
    var broker: [String] = []

    @Option(name: WorkerSettings.service.flag, help: WorkerSettings.service.help)
    var service: [String] = []

    @Option(name: WorkerSettings.concurrency.flag, help: WorkerSettings.concurrency.help)
    var concurrency: Int?

    @Option(name: WorkerSettings.connections.flag, help: WorkerSettings.connections.help)
    var connections: Int?

    @Option(name: WorkerSettings.ioThreads.flag, help: WorkerSettings.ioThreads.help)
    var ioThreads: Int?

    @Option(name: WorkerSettings.heartbeatInterval.flag, help: WorkerSettings.heartbeatInterval.help)
    var heartbeatInterval: DurationArgument?

    @Option(name: WorkerSettings.heartbeatLiveness.flag, help: WorkerSettings.heartbeatLiveness.help)
    var heartbeatLiveness: Int?

    @Option(name: WorkerSettings.reconnectDelay.flag, help: WorkerSettings.reconnectDelay.help)
    var reconnectDelay: DurationArgument?

    @Option(name: WorkerSettings.maxBodyBytes.flag, help: WorkerSettings.maxBodyBytes.help)
    var maxBodyBytes: Int?

    @Option(name: WorkerSettings.maxListElements.flag, help: WorkerSettings.maxListElements.help)
    var maxListElements: Int?

    @Option(name: WorkerSettings.shutdownGrace.flag, help: WorkerSettings.shutdownGrace.help)
    var shutdownGrace: DurationArgument?

    @Option(help: ArgumentHelp("Fault drills only: pause before computing each request.", visibility: .hidden))
    var simulatedLatency: DurationArgument?

    @OptionGroup var monitoring: MonitoringOptions<WorkerSettings>

    @OptionGroup var curve: CurveClientOptions<WorkerSettings>

    @OptionGroup var process: ProcessOptions

    func run() async throws {
        MallocTuning.keepRequestBuffers()
        try await process.run(label: "tally.worker", catalog: WorkerSettings.catalog, serve)
    }

    /// Everything after logging is set up: with JSON logs, an error thrown here is logged as JSON (``ProcessLog``).
    func serve(settings: SettingSources, logger: Logger) async throws {
        let brokers = try settings.resolve(broker, WorkerSettings.broker)
        let services = try settings.resolve(service, WorkerSettings.service)
        var configuration = WorkerConfiguration(brokers: brokers, services: services)
        configuration.concurrency = try settings.resolve(concurrency, WorkerSettings.concurrency)
        let connections = try settings.resolve(connections, WorkerSettings.connections)
        configuration.connections = connections == 0 ? nil : connections
        let ioThreads = try settings.resolve(ioThreads, WorkerSettings.ioThreads)
        configuration.ioThreads = ioThreads == 0 ? nil : ioThreads
        configuration.heartbeatInterval = try settings.resolve(heartbeatInterval, WorkerSettings.heartbeatInterval)
            .duration
        configuration.heartbeatLiveness = try settings.resolve(heartbeatLiveness, WorkerSettings.heartbeatLiveness)
        configuration.reconnectDelay = try settings.resolve(reconnectDelay, WorkerSettings.reconnectDelay).duration
        let limits = RequestLimits(
            maxBodyBytes: try settings.resolve(maxBodyBytes, WorkerSettings.maxBodyBytes),
            maxListElements: try settings.resolve(maxListElements, WorkerSettings.maxListElements))
        let grace = try settings.resolve(shutdownGrace, WorkerSettings.shutdownGrace).duration
        let monitoringAddress = try monitoring.address(settings)
        let socketSetup = try curve.socketSetup(settings)

        let tracing = try process.startTracing(
            settings: settings, serviceName: "tally-worker", version: TallyBuild.version, logger: logger)

        let identity = WorkerIdentity.current(version: TallyBuild.version)
        // The broker's console names the process as `system.ping` does.
        configuration.name = identity.name
        var registry = MethodRegistry.allMethods(identity: identity)
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
            tracer: tracing?.tracer, logger: logger)
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
        // A second line once every service is registered with a broker (what /readyz says): scripts and tests
        // that must not send before the worker can be reached wait for it.
        let announcer = RegistrationAnnouncer(worker: service.worker) { status in
            announce(
                "tally-worker registered \(status.services.keys.sorted().joined(separator: ",")) "
                    + "(\(status.services.values.map(\.registered).reduce(0, +)) connections)")
        }
        var configurations = lifecycle.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
        configurations.append(.init(service: announcer, successTerminationBehavior: .ignore))
        try await process.runServiceGroup(configurations, tracing: tracing, logger: logger)
    }
}
