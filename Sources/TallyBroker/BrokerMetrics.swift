import Majordomo
import Metrics
import Synchronization

/// Turns broker events into metrics (through the swift-metrics API; the executable picks the backend). What each
/// metric means is its HELP text, in `BrokerMetrics.help`.
///
/// | metric | labels |
/// |---|---|
/// | `tally_broker_requests_total` | service, outcome: `delivered`, `overloaded`, `no_worker`, `workers_lost`, `worker_timeout`, `worker_died`, `shutting_down`, `too_many_services`, `payload_too_large` |
/// | `tally_broker_request_duration_seconds` (histogram) | service |
/// | `tally_broker_requeues_total`, `tally_broker_requests_returned_total`, `tally_broker_poison_requests_total` | service |
/// | `tally_broker_heartbeat_expiries_total`, `tally_broker_worker_registrations_total`, `…_disconnects_total` | service |
/// | `tally_broker_replies_refused_total` | reason: `not_held`, `id_mismatch` |
/// | `tally_broker_protocol_violations_total`, `tally_broker_replies_dropped_total`, `tally_broker_mmi_queries_total` | — |
/// | `tally_broker_queued_requests`, `tally_broker_in_flight_requests`, `tally_broker_worker_processes`, `tally_broker_worker_connections`, `tally_broker_worker_request_capacity` (gauges, set per scrape) | service |
/// | `tally_broker_peer_connections` (gauge, set per scrape) | — |
///
/// The `service` label only ever holds a name some worker registered: names that clients alone sent (typos,
/// probes, a flood of invented names) are counted under `unknown`, so that no client can grow the series.
/// Registered names are bounded too (`maxLabeledServices`; past it, `unknown` as well).
package final class BrokerMetrics: Sendable {
    /// The label of every service no worker registered.
    package static let unknownService = "unknown"

    /// A class, so that finding a service's metrics for each reply costs one reference, not a copy of its thirteen.
    /// Touched under `state`'s lock only.
    private final class ServiceMetrics {
        let label: String
        var outcomes: [String: Counter] = [:]
        /// `outcome("delivered")`, the outcome of nearly every request, kept apart from the others' lookup.
        lazy var delivered = outcome("delivered")
        let latency: Metrics.Timer
        let requeues: Counter
        let returns: Counter
        let poisoned: Counter
        let expiries: Counter
        let registrations: Counter
        let disconnects: Counter
        let queued: Gauge
        let inFlight: Gauge
        let processes: Gauge
        let connections: Gauge
        let capacity: Gauge
        let factory: any MetricsFactory

        init(label: String, factory: any MetricsFactory) {
            self.label = label
            self.factory = factory
            let labels = [("service", label)]
            latency = Metrics.Timer(
                label: "tally_broker_request_duration_seconds", dimensions: labels, preferredDisplayUnit: .seconds,
                factory: factory)
            requeues = Counter(label: "tally_broker_requeues_total", dimensions: labels, factory: factory)
            returns = Counter(label: "tally_broker_requests_returned_total", dimensions: labels, factory: factory)
            poisoned = Counter(label: "tally_broker_poison_requests_total", dimensions: labels, factory: factory)
            expiries = Counter(label: "tally_broker_heartbeat_expiries_total", dimensions: labels, factory: factory)
            registrations = Counter(
                label: "tally_broker_worker_registrations_total", dimensions: labels, factory: factory)
            disconnects = Counter(label: "tally_broker_worker_disconnects_total", dimensions: labels, factory: factory)
            queued = Gauge(label: "tally_broker_queued_requests", dimensions: labels, factory: factory)
            inFlight = Gauge(label: "tally_broker_in_flight_requests", dimensions: labels, factory: factory)
            processes = Gauge(label: "tally_broker_worker_processes", dimensions: labels, factory: factory)
            connections = Gauge(label: "tally_broker_worker_connections", dimensions: labels, factory: factory)
            capacity = Gauge(label: "tally_broker_worker_request_capacity", dimensions: labels, factory: factory)
        }

        func outcome(_ outcome: String) -> Counter {
            if let counter = outcomes[outcome] { return counter }
            let counter = Counter(
                label: "tally_broker_requests_total", dimensions: [("service", label), ("outcome", outcome)],
                factory: factory)
            outcomes[outcome] = counter
            return counter
        }

        /// Sets the gauges; `nil` (a registered service the broker forgot since) reads 0.
        func show(_ state: BrokerSnapshot.ServiceState?) {
            queued.record(state?.queued ?? 0)
            inFlight.record(state?.inFlight ?? 0)
            processes.record(state?.workerProcesses ?? 0)
            connections.record(state?.workers ?? 0)
            capacity.record(state?.credit ?? 0)
        }
    }

    private struct State {
        /// Services some worker registered, by name.
        var registered: [String: ServiceMetrics] = [:]
        let unknown: ServiceMetrics
    }

    /// Most service names that get a label of their own.
    package let maxLabeledServices: Int
    private let factory: any MetricsFactory
    private let state: Mutex<State>
    private let violations: Counter
    private let droppedReplies: Counter
    private let refusedReplies = Mutex<[ReplyRefusal: Counter]>([:])
    private let managementQueries: Counter
    private let peerConnections: Gauge

    /// - Parameter factory: where the metrics go; the process-wide backend unless a test passes its own.
    package init(maxLabeledServices: Int = 256, factory: any MetricsFactory = MetricsSystem.factory) {
        self.maxLabeledServices = maxLabeledServices
        self.factory = factory
        state = Mutex(State(unknown: ServiceMetrics(label: Self.unknownService, factory: factory)))
        violations = Counter(label: "tally_broker_protocol_violations_total", factory: factory)
        droppedReplies = Counter(label: "tally_broker_replies_dropped_total", factory: factory)
        managementQueries = Counter(label: "tally_broker_mmi_queries_total", factory: factory)
        peerConnections = Gauge(label: "tally_broker_peer_connections", factory: factory)
    }

    /// Records one event; called on the broker's I/O thread, so it stays cheap (a lock and a counter).
    package func record(_ event: BrokerEvent) {
        switch event {
        case .replyDelivered(let service, let latency, _):
            withService(service) { metrics in
                metrics.latency.record(duration: latency)
                metrics.delivered.increment()
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
                        label: "tally_broker_replies_refused_total", dimensions: [("reason", reason.rawValue)],
                        factory: factory)
                }
                counters[reason]!.increment()
            }
        case .requestTrace, .errorReplied:
            // The worker counts its own answers by code (`tally_worker_requests_total`).
            break
        case .managementQuery:
            managementQueries.increment()
        }
    }

    /// Sets the queue and worker gauges from a snapshot: registered services each, the rest summed under
    /// `unknown`; a registered service that disappeared reads 0. And the connections open.
    package func update(_ snapshot: BrokerSnapshot) {
        if let connections = snapshot.peerConnections { peerConnections.record(connections) }
        state.withLock { state in
            var unknown = BrokerSnapshot.ServiceState()
            for (name, service) in snapshot.services where state.registered[name] == nil {
                unknown.queued += service.queued
                unknown.inFlight += service.inFlight
                unknown.workerProcesses += service.workerProcesses
                unknown.workers += service.workers
                unknown.credit += service.credit
            }
            for (name, metrics) in state.registered { metrics.show(snapshot.services[name]) }
            state.unknown.show(unknown)
        }
    }

    /// The metrics of `service`'s label: its own once a worker registered it (`registering`), else `unknown`. One
    /// lookup for a reply, the hot path.
    private func withService(_ service: String, registering: Bool = false, _ body: (ServiceMetrics) -> Void) {
        state.withLock { state in
            if let metrics = state.registered[service] {
                body(metrics)
            } else if registering, state.registered.count < maxLabeledServices, service != Self.unknownService {
                let metrics = ServiceMetrics(label: service, factory: factory)
                state.registered[service] = metrics
                body(metrics)
            } else {
                body(state.unknown)
            }
        }
    }
}
