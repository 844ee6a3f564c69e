import ArgumentParser
import Foundation
import Logging
import Majordomo
import ServiceLifecycle
import TallyBroker
import TallyCommandLine
import TallyConsole
import TallyMonitoring
import TallyProtocol
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

    @Option(name: BrokerSettings.bind.flag, help: BrokerSettings.bind.help)
    var bind: [String] = []

    @Option(name: BrokerSettings.heartbeatInterval.flag, help: BrokerSettings.heartbeatInterval.help)
    var heartbeatInterval: DurationArgument?

    @Option(name: BrokerSettings.heartbeatLiveness.flag, help: BrokerSettings.heartbeatLiveness.help)
    var heartbeatLiveness: Int?

    @Option(name: BrokerSettings.queueTimeout.flag, help: BrokerSettings.queueTimeout.help)
    var queueTimeout: DurationArgument?

    @Option(name: BrokerSettings.serviceGrace.flag, help: BrokerSettings.serviceGrace.help)
    var serviceGrace: DurationArgument?

    @Option(name: BrokerSettings.requestTimeout.flag, help: BrokerSettings.requestTimeout.help)
    var requestTimeout: DurationArgument?

    @Option(name: BrokerSettings.maxQueue.flag, help: BrokerSettings.maxQueue.help)
    var maxQueue: Int?

    @Option(name: BrokerSettings.maxAttempts.flag, help: BrokerSettings.maxAttempts.help)
    var maxAttempts: Int?

    @Option(name: BrokerSettings.maxBodyBytes.flag, help: BrokerSettings.maxBodyBytes.help)
    var maxBodyBytes: Int?

    @Option(name: BrokerSettings.shutdownGrace.flag, help: BrokerSettings.shutdownGrace.help)
    var shutdownGrace: DurationArgument?

    @Option(name: BrokerSettings.transportThreads.flag, help: BrokerSettings.transportThreads.help)
    var transportThreads: Int?

    @OptionGroup var monitoring: MonitoringOptions<BrokerSettings>

    @Option(name: BrokerSettings.curveSecretKey.flag, help: BrokerSettings.curveSecretKey.help)
    var curveSecretKey: String?

    @Option(name: BrokerSettings.curveClientKeys.flag, help: BrokerSettings.curveClientKeys.help)
    var curveClientKeys: String?

    @Option(name: BrokerSettings.curveWorkerKeys.flag, help: BrokerSettings.curveWorkerKeys.help)
    var curveWorkerKeys: String?

    @OptionGroup var process: ProcessOptions

    func run() async throws {
        try await process.run(label: "tally.broker", catalog: BrokerSettings.catalog, serve)
    }

    /// Everything after logging is set up: with JSON logs, an error thrown here is logged as JSON (``ProcessLog``).
    func serve(settings: SettingSources, logger: Logger) async throws {
        var configuration = BrokerConfiguration()
        configuration.heartbeatInterval = try settings.resolve(heartbeatInterval, BrokerSettings.heartbeatInterval)
            .duration
        configuration.heartbeatLiveness = try settings.resolve(heartbeatLiveness, BrokerSettings.heartbeatLiveness)
        configuration.queueTimeout = try settings.resolve(queueTimeout, BrokerSettings.queueTimeout).duration
        configuration.serviceGrace = try settings.resolve(serviceGrace, BrokerSettings.serviceGrace).duration
        configuration.requestTimeout = try settings.resolve(requestTimeout, BrokerSettings.requestTimeout).duration
        configuration.maxQueuedPerService = try settings.resolve(maxQueue, BrokerSettings.maxQueue)
        configuration.maxAttempts = try settings.resolve(maxAttempts, BrokerSettings.maxAttempts)
        configuration.maxBodyBytes = try settings.resolve(maxBodyBytes, BrokerSettings.maxBodyBytes)
        let grace = try settings.resolve(shutdownGrace, BrokerSettings.shutdownGrace).duration
        let transportThreads = try settings.resolve(transportThreads, BrokerSettings.transportThreads)
        let endpoints = try settings.resolve(bind, BrokerSettings.bind)
        let monitoringAddress = try monitoring.address(settings)
        let security = try Self.security(
            secretKey: try settings.resolve(curveSecretKey, BrokerSettings.curveSecretKey),
            clientKeys: try settings.resolve(curveClientKeys, BrokerSettings.curveClientKeys),
            workerKeys: try settings.resolve(curveWorkerKeys, BrokerSettings.curveWorkerKeys))

        let tracing = try process.startTracing(
            settings: settings, serviceName: "tally-broker", version: TallyBuild.version, logger: logger)

        let metrics = monitoringAddress.map { _ in
            PrometheusMetrics.bootstrap(help: BrokerMetrics.help, version: TallyBuild.version)
        }
        let brokerMetrics = metrics.map { _ in BrokerMetrics() }
        // The console shares the metrics' endpoint (and so its address: loopback unless told otherwise).
        let recorder = metrics.map { _ in ConsoleRecorder() }
        var observer: (@Sendable (BrokerEvent) -> Void)?
        if let brokerMetrics, let recorder {
            observer = { event in
                brokerMetrics.record(event)
                recorder.record(event)
            }
        }
        let service = try BrokerService(
            configuration: configuration, endpoints: endpoints, security: security, gracePeriod: grace,
            transportThreads: transportThreads == 0 ? nil : transportThreads, observer: observer,
            tracer: tracing?.tracer, logger: logger)
        let broker = service.broker
        if let security {
            logger.info("CURVE on", metadata: ["curve.public_key": "\(security.keyPair.publicKey)"])
        } else {
            logger.notice("CURVE off: traffic is plaintext and any peer may connect (trusted networks only)")
        }
        var services: [any Service] = []
        // Before the broker binds: an HTTP address that cannot be listened on stops the process at start.
        if let monitoringAddress, let metrics, let brokerMetrics, let recorder {
            let console = ConsoleService(
                recorder: recorder, broker: broker,
                facts: .init(version: TallyBuild.version, startedAt: Date(), curve: security != nil))
            let monitoring = try MonitoringServer(
                address: monitoringAddress, metrics: metrics,
                beforeScrape: { brokerMetrics.update(await broker.snapshot()) },
                readiness: { await !broker.snapshot().isDraining },
                routes: console.routes,
                logger: logger)
            services.append(console)
            services.append(monitoring)
        }
        let bound = try service.start()
        services.append(service)
        // One line on standard output saying where the broker listens: scripts and tests read it.
        announce("tally-broker \(TallyBuild.version) listening on \(bound.joined(separator: " "))")
        // Services shut down in reverse order: the broker drains first, the HTTP endpoint goes last.
        try await process.runServiceGroup(services.map { .init(service: $0) }, tracing: tracing, logger: logger)
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
}
