import Majordomo
import ZeroMQ

/// `tally-broker`'s settings. Defaults are `BrokerConfiguration`'s.
package enum BrokerSettings: MonitoredProgramSettings {
    private static let library = BrokerConfiguration()

    package static let bind = Setting(
        list: "bind", "Endpoint to bind; repeat for several.", default: ["tcp://*:5555"], check: .endpoints(.bind))
    package static let heartbeatInterval = SharedSettings.heartbeatInterval(
        "How often to heartbeat each worker.", default: library.heartbeatInterval)
    package static let heartbeatLiveness = SharedSettings.heartbeatLiveness(
        "Missed heartbeats after which a worker is dead and its requests re-queued.",
        default: library.heartbeatLiveness)
    package static let queueTimeout = Setting(
        "queue-timeout", "How long a request may wait for a worker before it is answered 'unavailable'.",
        default: DurationArgument(library.queueTimeout), check: .positive)
    package static let serviceGrace = Setting(
        "service-grace",
        "How long requests for a service without workers wait for some after the broker starts or the service's "
            + "last worker leaves; past it they are answered 'unavailable' at once.",
        default: DurationArgument(library.serviceGrace))
    package static let requestTimeout = Setting(
        "request-timeout",
        "How long a worker may hold a request before the broker answers it 'unavailable' and disconnects the worker.",
        default: DurationArgument(library.requestTimeout), check: .positive)
    package static let maxQueue = Setting(
        "max-queue", "Requests queued per service before new ones are answered 'overloaded'.",
        default: library.maxQueuedPerService, check: .atLeast(1))
    package static let maxAttempts = Setting(
        "max-attempts", "Times one request is sent to a worker before a lost request is answered 'unavailable'.",
        default: library.maxAttempts, check: .atLeast(1))
    package static let maxBodyBytes = SharedSettings.maxBodyBytes(
        "Largest request body in bytes; larger ones are answered 'payload_too_large'.", default: library.maxBodyBytes)
    package static let shutdownGrace = SharedSettings.shutdownGrace(
        "How long a graceful shutdown lets queued and running requests finish.")
    package static let transportThreads = Setting(
        "transport-threads",
        "libzmq I/O threads doing the broker's TCP work (reading and writing every byte, CURVE), its connections "
            + "spread over them; the broker's own loop stays one thread. 0 for one per 4 processor cores.",
        default: 0, check: .within(0...64))
    package static let http = MonitoringSettings.http(example: 9100, console: true)
    package static let curveSecretKey = SharedSettings.curveSecretKey(
        "File with the broker's CURVE secret key: turns on encryption and authentication.")
    package static let curveClientKeys = Setting(
        "curve-client-keys", "File listing the CURVE public keys of allowed clients, one per line.", default: "",
        shownDefault: "none")
    package static let curveWorkerKeys = Setting(
        "curve-worker-keys", "File listing the CURVE public keys of allowed workers, one per line.", default: "",
        shownDefault: "none")

    package static let catalog = SettingCatalog(
        program: "tally-broker",
        settings: [
            bind.documentation, heartbeatInterval.documentation, heartbeatLiveness.documentation,
            queueTimeout.documentation, serviceGrace.documentation, requestTimeout.documentation,
            maxQueue.documentation, maxAttempts.documentation, maxBodyBytes.documentation,
            shutdownGrace.documentation, transportThreads.documentation,
        ] + MonitoringOptions<BrokerSettings>.settings + [
            curveSecretKey.documentation, curveClientKeys.documentation, curveWorkerKeys.documentation,
        ] + ProcessOptions.settings)
}
