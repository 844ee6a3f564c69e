import Majordomo
import TallyProtocol

/// `tally-worker`'s settings. Defaults are `WorkerConfiguration`'s and `RequestLimits`'.
package enum WorkerSettings: MonitoredProgramSettings, CurveClientSettings {
    private static let library = WorkerConfiguration(brokers: [], services: [])
    private static let limits = RequestLimits()

    package static let broker = ConnectionSettings.broker
    package static let service = Setting(
        list: "service", "MDP service to serve; repeat for several.",
        default: TallyService.domainServices.map(\.rawValue), environmentVariable: "TALLY_SERVICES",
        check: SettingCheck { services in
            guard !services.isEmpty else { return "needs at least one service" }
            let bad = services.first { $0.isEmpty || $0.hasPrefix("mmi.") || $0.utf8.count > 255 }
            return bad.map { "'\($0)' is not a service a worker can serve" }
        })
    package static let concurrency = Setting(
        "concurrency",
        "Requests of each service this process holds at once per broker, computing or ready: the credit its "
            + "connections offer together.",
        default: library.concurrency, check: .within(1...256))
    package static let connections = Setting(
        "connections",
        "MDP connections per service per broker, 0 for one per I/O thread. A broker that speaks plain MDP/0.1 "
            + "sends one request per connection at a time: against one, set this to --concurrency.",
        default: library.connections ?? 0, check: .within(0...256))
    package static let ioThreads = Setting(
        "io-threads",
        "Threads the MDP connections are spread over; requests compute on them, so this is how many compute at "
            + "once. 0 for one per processor core.",
        default: library.ioThreads ?? 0, check: .within(0...256))
    package static let heartbeatInterval = SharedSettings.heartbeatInterval(
        "How often to heartbeat the broker.", default: library.heartbeatInterval)
    package static let heartbeatLiveness = SharedSettings.heartbeatLiveness(
        "Missed broker heartbeats after which the worker reconnects.", default: library.heartbeatLiveness)
    package static let reconnectDelay = Setting(
        "reconnect-delay", "Pause before reconnecting to a broker.", default: DurationArgument(library.reconnectDelay))
    package static let maxBodyBytes = SharedSettings.maxBodyBytes(
        "Largest request body in bytes.", default: limits.maxBodyBytes)
    package static let maxListElements = Setting(
        "max-list-elements", "Most elements in any list of a request (records, workouts…).",
        default: limits.maxListElements, check: .atLeast(1))
    package static let shutdownGrace = SharedSettings.shutdownGrace(
        "How long a graceful shutdown waits for requests in progress.")
    package static let http = MonitoringSettings.http(example: 9101)
    package static let curveSecretKey = SharedSettings.curveSecretKey(
        "File with this worker's CURVE secret key (its public key must be in the broker's worker list).")
    package static let curveServerKey = ConnectionSettings.curveServerKey

    package static let catalog = SettingCatalog(
        program: "tally-worker",
        settings: [
            broker.documentation, service.documentation, concurrency.documentation, connections.documentation,
            ioThreads.documentation, heartbeatInterval.documentation, heartbeatLiveness.documentation,
            reconnectDelay.documentation, maxBodyBytes.documentation, maxListElements.documentation,
            shutdownGrace.documentation,
        ] + MonitoringOptions<WorkerSettings>.settings + CurveClientOptions<WorkerSettings>.settings
            + ProcessOptions.settings)
}
