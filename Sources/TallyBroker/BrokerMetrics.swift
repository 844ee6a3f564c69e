import Majordomo
import Metrics
import Synchronization

/// Turns broker events into metrics (through the swift-metrics API; the executable picks the backend).
///
/// | metric | labels | meaning |
/// |---|---|---|
/// | `tally_broker_requests_total` | service, outcome | requests by how they ended: `delivered`, `overloaded`, `no_worker`, `workers_lost`, `worker_timeout`, `worker_died`, `shutting_down`, `too_many_services`, `payload_too_large` |
/// | `tally_broker_request_duration_seconds` | service | broker arrival → reply delivered (histogram) |
/// | `tally_broker_requeues_total` | service | requests re-queued after losing their worker (counted against the attempts) |
/// | `tally_broker_requests_returned_total` | service | requests a departing worker gave back before computing them |
/// | `tally_broker_poison_requests_total` | service | requests answered `internal` because their workers died computing them |
/// | `tally_broker_heartbeat_expiries_total` | service | workers declared dead after missing heartbeats |
/// | `tally_broker_worker_registrations_total`, `…_disconnects_total` | service | READY / DISCONNECT |
/// | `tally_broker_replies_refused_total` | reason | worker replies delivered to nobody (`not_held`, `id_mismatch`); the worker was disconnected |
/// | `tally_broker_protocol_violations_total`, `tally_broker_replies_dropped_total`, `tally_broker_mmi_queries_total` | — | |
/// | `tally_broker_queued_requests`, `tally_broker_workers`, `tally_broker_idle_workers` | service | gauges, refreshed per scrape |
///
/// The `service` label only ever holds a name some worker registered: names that clients alone sent (typos,
/// probes, a flood of invented names) are counted under `unknown`, so that no client can grow the series.
/// Registered names are bounded too (`maxLabeledServices`; past it, `unknown` as well).
public final class BrokerMetrics: Sendable {
    /// The label of every service no worker registered.
    public static let unknownService = "unknown"

    private struct ServiceMetrics {
        let label: String
        var outcomes: [String: Counter] = [:]
        let latency: Metrics.Timer
        let requeues: Counter
        let returns: Counter
        let poisoned: Counter
        let expiries: Counter
        let registrations: Counter
        let disconnects: Counter
        let queued: Gauge
        let workers: Gauge
        let idle: Gauge

        init(label: String) {
            self.label = label
            let labels = [("service", label)]
            latency = Metrics.Timer(
                label: "tally_broker_request_duration_seconds", dimensions: labels, preferredDisplayUnit: .seconds)
            requeues = Counter(label: "tally_broker_requeues_total", dimensions: labels)
            returns = Counter(label: "tally_broker_requests_returned_total", dimensions: labels)
            poisoned = Counter(label: "tally_broker_poison_requests_total", dimensions: labels)
            expiries = Counter(label: "tally_broker_heartbeat_expiries_total", dimensions: labels)
            registrations = Counter(label: "tally_broker_worker_registrations_total", dimensions: labels)
            disconnects = Counter(label: "tally_broker_worker_disconnects_total", dimensions: labels)
            queued = Gauge(label: "tally_broker_queued_requests", dimensions: labels)
            workers = Gauge(label: "tally_broker_workers", dimensions: labels)
            idle = Gauge(label: "tally_broker_idle_workers", dimensions: labels)
        }

        mutating func outcome(_ outcome: String) -> Counter {
            if let counter = outcomes[outcome] { return counter }
            let counter = Counter(
                label: "tally_broker_requests_total", dimensions: [("service", label), ("outcome", outcome)])
            outcomes[outcome] = counter
            return counter
        }
    }

    private struct State {
        /// Services some worker registered, by name.
        var registered: [String: ServiceMetrics] = [:]
        var unknown = ServiceMetrics(label: BrokerMetrics.unknownService)
    }

    /// Most service names that get a label of their own.
    public let maxLabeledServices: Int
    private let state = Mutex(State())
    private let violations = Counter(label: "tally_broker_protocol_violations_total")
    private let droppedReplies = Counter(label: "tally_broker_replies_dropped_total")
    private let refusedReplies = Mutex<[ReplyRefusal: Counter]>([:])
    private let managementQueries = Counter(label: "tally_broker_mmi_queries_total")

    public init(maxLabeledServices: Int = 256) {
        self.maxLabeledServices = maxLabeledServices
    }

    /// Records one event; called on the broker's I/O thread, so it stays cheap (a lock and a counter).
    public func record(_ event: BrokerEvent) {
        switch event {
        case .replyDelivered(let service, let latency, _):
            withService(service) { metrics in
                metrics.latency.recordNanoseconds(
                    Int64(latency.components.seconds) * 1_000_000_000 + latency.components.attoseconds / 1_000_000_000)
                metrics.outcome("delivered").increment()
            }
        case .requestFailed(let service, let failure):
            withService(service) { $0.outcome(failure.kind).increment() }
        case .requestRequeued(let service, _):
            withService(service) { $0.requeues.increment() }
        case .requestReturned(let service):
            withService(service) { $0.returns.increment() }
        case .requestPoisoned(let service, _):
            withService(service) { $0.poisoned.increment() }
        case .workerExpired(_, let service):
            withService(service) { $0.expiries.increment() }
        case .workerReady(_, let service):
            withService(service, registering: true) { $0.registrations.increment() }
        case .workerDisconnected(_, let service), .workerTimedOut(_, let service, _):
            withService(service) { $0.disconnects.increment() }
        case .protocolViolation:
            violations.increment()
        case .replyDropped:
            droppedReplies.increment()
        case .replyRefused(_, _, let reason):
            refusedReplies.withLock { counters in
                if counters[reason] == nil {
                    counters[reason] = Counter(
                        label: "tally_broker_replies_refused_total", dimensions: [("reason", reason.rawValue)])
                }
                counters[reason]!.increment()
            }
        case .managementQuery:
            managementQueries.increment()
        }
    }

    /// Sets the queue and worker gauges from a snapshot: registered services each, the rest summed under
    /// `unknown`; a registered service that disappeared reads 0.
    public func update(_ snapshot: BrokerSnapshot) {
        state.withLock { state in
            var unknown = (queued: 0, workers: 0, idle: 0)
            for (name, service) in snapshot.services where state.registered[name] == nil {
                unknown.queued += service.queued
                unknown.workers += service.workers
                unknown.idle += service.idleWorkers
            }
            for (name, metrics) in state.registered {
                let service = snapshot.services[name]
                metrics.queued.record(service?.queued ?? 0)
                metrics.workers.record(service?.workers ?? 0)
                metrics.idle.record(service?.idleWorkers ?? 0)
            }
            state.unknown.queued.record(unknown.queued)
            state.unknown.workers.record(unknown.workers)
            state.unknown.idle.record(unknown.idle)
        }
    }

    /// The metrics of `service`'s label: its own once a worker registered it (`registering`), else `unknown`.
    private func withService(_ service: String, registering: Bool = false, _ body: (inout ServiceMetrics) -> Void) {
        state.withLock { state in
            if state.registered[service] == nil, registering, state.registered.count < maxLabeledServices,
                service != Self.unknownService
            {
                state.registered[service] = ServiceMetrics(label: service)
            }
            if state.registered[service] != nil {
                body(&state.registered[service]!)
            } else {
                body(&state.unknown)
            }
        }
    }
}
