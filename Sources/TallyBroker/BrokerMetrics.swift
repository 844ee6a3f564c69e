import Majordomo
import Metrics
import Synchronization

/// Turns broker events into metrics (through the swift-metrics API; the executable picks the backend).
///
/// | metric | labels | meaning |
/// |---|---|---|
/// | `tally_broker_requests_total` | service, outcome | requests by how they ended: `delivered`, `overloaded`, `no_worker`, `workers_lost`, `shutting_down`, `too_many_services`, `payload_too_large` |
/// | `tally_broker_request_duration_seconds` | service | broker arrival → reply delivered (histogram) |
/// | `tally_broker_requeues_total` | service | requests re-queued after losing their worker |
/// | `tally_broker_heartbeat_expiries_total` | service | workers declared dead after missing heartbeats |
/// | `tally_broker_worker_registrations_total`, `…_disconnects_total` | service | READY / DISCONNECT |
/// | `tally_broker_protocol_violations_total`, `tally_broker_replies_dropped_total`, `tally_broker_mmi_queries_total` | — | |
/// | `tally_broker_queued_requests`, `tally_broker_workers`, `tally_broker_idle_workers` | service | gauges, refreshed per scrape |
public final class BrokerMetrics: Sendable {
    private struct ServiceMetrics {
        var outcomes: [String: Counter] = [:]
        let latency: Metrics.Timer
        let requeues: Counter
        let expiries: Counter
        let registrations: Counter
        let disconnects: Counter
        let queued: Gauge
        let workers: Gauge
        let idle: Gauge

        init(service: String) {
            let labels = [("service", service)]
            latency = Metrics.Timer(
                label: "tally_broker_request_duration_seconds", dimensions: labels, preferredDisplayUnit: .seconds)
            requeues = Counter(label: "tally_broker_requeues_total", dimensions: labels)
            expiries = Counter(label: "tally_broker_heartbeat_expiries_total", dimensions: labels)
            registrations = Counter(label: "tally_broker_worker_registrations_total", dimensions: labels)
            disconnects = Counter(label: "tally_broker_worker_disconnects_total", dimensions: labels)
            queued = Gauge(label: "tally_broker_queued_requests", dimensions: labels)
            workers = Gauge(label: "tally_broker_workers", dimensions: labels)
            idle = Gauge(label: "tally_broker_idle_workers", dimensions: labels)
        }
    }

    private let services = Mutex<[String: ServiceMetrics]>([:])
    private let violations = Counter(label: "tally_broker_protocol_violations_total")
    private let droppedReplies = Counter(label: "tally_broker_replies_dropped_total")
    private let managementQueries = Counter(label: "tally_broker_mmi_queries_total")

    public init() {}

    /// Records one event; called on the broker's I/O thread, so it stays cheap (a lock and a counter).
    public func record(_ event: BrokerEvent) {
        switch event {
        case .replyDelivered(let service, let latency, _):
            withService(service) { metrics in
                metrics.latency.recordNanoseconds(
                    Int64(latency.components.seconds) * 1_000_000_000 + latency.components.attoseconds / 1_000_000_000)
                Self.outcome("delivered", service: service, in: &metrics).increment()
            }
        case .requestFailed(let service, let failure):
            withService(service) { Self.outcome(Self.name(of: failure), service: service, in: &$0).increment() }
        case .requestRequeued(let service, _):
            withService(service) { $0.requeues.increment() }
        case .workerExpired(_, let service):
            withService(service) { $0.expiries.increment() }
        case .workerReady(_, let service):
            withService(service) { $0.registrations.increment() }
        case .workerDisconnected(_, let service), .workerTimedOut(_, let service, _):
            withService(service) { $0.disconnects.increment() }
        case .protocolViolation:
            violations.increment()
        case .replyDropped:
            droppedReplies.increment()
        case .managementQuery:
            managementQueries.increment()
        }
    }

    /// Sets the queue and worker gauges from a snapshot (services that disappeared read 0).
    public func update(_ snapshot: BrokerSnapshot) {
        services.withLock { all in
            for name in Set(all.keys).union(snapshot.services.keys) {
                let state = snapshot.services[name]
                if all[name] == nil { all[name] = ServiceMetrics(service: name) }
                all[name]!.queued.record(state?.queued ?? 0)
                all[name]!.workers.record(state?.workers ?? 0)
                all[name]!.idle.record(state?.idleWorkers ?? 0)
            }
        }
    }

    private func withService(_ service: String, _ body: (inout ServiceMetrics) -> Void) {
        services.withLock { all in
            if all[service] == nil { all[service] = ServiceMetrics(service: service) }
            body(&all[service]!)
        }
    }

    private static func outcome(_ outcome: String, service: String, in metrics: inout ServiceMetrics) -> Counter {
        if let counter = metrics.outcomes[outcome] { return counter }
        let counter = Counter(
            label: "tally_broker_requests_total", dimensions: [("service", service), ("outcome", outcome)])
        metrics.outcomes[outcome] = counter
        return counter
    }

    static func name(of failure: BrokerFailure) -> String {
        switch failure {
        case .overloaded: "overloaded"
        case .noWorker: "no_worker"
        case .workersLost: "workers_lost"
        case .workerTimedOut: "worker_timeout"
        case .shuttingDown: "shutting_down"
        case .tooManyServices: "too_many_services"
        case .payloadTooLarge: "payload_too_large"
        }
    }
}
