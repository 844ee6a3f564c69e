import ArgumentParser
import Foundation
import Logging
import Majordomo
import ServiceLifecycle
import TallyCommandLine
import TallyProtocol
import UnixSignals
import TallyWorker

@main
struct TallyWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally-worker",
        abstract: "A Tally worker: computes step history, streak and workout summaries for requests from tally-broker.",
        discussion: """
            Connects to every broker given and registers each service there over --concurrency MDP connections, \
            so one process computes several requests at once. Reconnects by itself when a broker goes away. Run \
            as many workers, on as many hosts, as the load needs.

            Every option can also come from the environment variable named in its help (flags win).
            On SIGTERM or SIGINT the worker stops taking requests, finishes those it holds, says DISCONNECT and exits.

            Example:
              tally-worker --broker tcp://127.0.0.1:5555 --concurrency 4
            """,
        version: TallyBuild.version)

    @Option(name: .long, help: "Broker endpoint; repeat to serve several brokers. [env: TALLY_BROKERS, comma-separated] (default: tcp://127.0.0.1:5555)")
    var broker: [String] = []

    @Option(name: .long, help: "MDP service to serve; repeat for several. [env: TALLY_SERVICES] (default: tally.history, tally.streak, tally.workout)")
    var service: [String] = []

    @Option(help: "Requests of each service this process computes at once (MDP connections per service per broker). [env: TALLY_CONCURRENCY] (default: 4)")
    var concurrency: Int?

    @Option(help: "How often to heartbeat the broker. [env: TALLY_HEARTBEAT_INTERVAL] (default: 2500ms)")
    var heartbeatInterval: DurationArgument?

    @Option(help: "Missed broker heartbeats after which the worker reconnects. [env: TALLY_HEARTBEAT_LIVENESS] (default: 3)")
    var heartbeatLiveness: Int?

    @Option(help: "Pause before reconnecting to a broker. [env: TALLY_RECONNECT_DELAY] (default: 1s)")
    var reconnectDelay: DurationArgument?

    @Option(help: "Largest request body in bytes. [env: TALLY_MAX_BODY_BYTES] (default: 1048576)")
    var maxBodyBytes: Int?

    @Option(help: "Most elements in any list of a request (records, workouts…). [env: TALLY_MAX_LIST_ELEMENTS] (default: 20000)")
    var maxListElements: Int?

    @Option(help: "How long a graceful shutdown waits for requests in progress. [env: TALLY_SHUTDOWN_GRACE] (default: 10s)")
    var shutdownGrace: DurationArgument?

    @Option(help: ArgumentHelp("Fault drills only: pause before computing each request.", visibility: .hidden))
    var simulatedLatency: DurationArgument?

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        let logger = try logging.bootstrap(label: "tally.worker")
        let brokers = ListSetting("TALLY_BROKERS", default: ["tcp://127.0.0.1:5555"]).resolve(broker)
        let services = ListSetting("TALLY_SERVICES", default: TallyService.domainServices.map(\.rawValue)).resolve(service)
        var configuration = WorkerConfiguration(brokers: brokers, services: services)
        configuration.concurrency = try Setting("TALLY_CONCURRENCY", default: 4).resolve(concurrency)
        configuration.heartbeatInterval = try Setting("TALLY_HEARTBEAT_INTERVAL", default: DurationArgument(.milliseconds(2500))).resolve(heartbeatInterval).duration
        configuration.heartbeatLiveness = try Setting("TALLY_HEARTBEAT_LIVENESS", default: 3).resolve(heartbeatLiveness)
        configuration.reconnectDelay = try Setting("TALLY_RECONNECT_DELAY", default: DurationArgument(.seconds(1))).resolve(reconnectDelay).duration
        let limits = RequestLimits(
            maxBodyBytes: try Setting("TALLY_MAX_BODY_BYTES", default: 1 << 20).resolve(maxBodyBytes),
            maxListElements: try Setting("TALLY_MAX_LIST_ELEMENTS", default: 20_000).resolve(maxListElements))
        let grace = try Setting("TALLY_SHUTDOWN_GRACE", default: DurationArgument(.seconds(10))).resolve(shutdownGrace).duration
        try Self.check(configuration, limits: limits)

        let dispatcher = MethodRegistry.allMethods(identity: .current(version: TallyBuild.version)).dispatcher(limits: limits)
        let service = try WorkerService(
            configuration: configuration, dispatcher: dispatcher, gracePeriod: grace,
            simulatedLatency: simulatedLatency?.duration ?? .zero, logger: logger)
        announce("tally-worker \(TallyBuild.version) serving \(services.joined(separator: ",")) via \(brokers.joined(separator: " ")) with concurrency \(configuration.concurrency)")
        let group = ServiceGroup(configuration: .init(
            services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    static func check(_ configuration: WorkerConfiguration, limits: RequestLimits) throws {
        guard !configuration.brokers.isEmpty else { throw ValidationError("give at least one --broker") }
        guard !configuration.services.isEmpty else { throw ValidationError("give at least one --service") }
        for service in configuration.services where service.isEmpty || service.hasPrefix("mmi.") || service.utf8.count > 255 {
            throw ValidationError("'\(service)' is not a service a worker can serve")
        }
        guard (1...256).contains(configuration.concurrency) else { throw ValidationError("--concurrency must be 1...256") }
        guard configuration.heartbeatInterval >= .milliseconds(10) else { throw ValidationError("--heartbeat-interval must be at least 10ms") }
        guard configuration.heartbeatLiveness >= 1 else { throw ValidationError("--heartbeat-liveness must be at least 1") }
        guard limits.maxBodyBytes >= 64 else { throw ValidationError("--max-body-bytes must be at least 64") }
        guard limits.maxListElements >= 1 else { throw ValidationError("--max-list-elements must be at least 1") }
    }
}
