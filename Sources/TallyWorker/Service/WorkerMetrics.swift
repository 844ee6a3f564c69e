import Metrics
import Synchronization
import TallyProtocol

/// Worker-side metrics (through the swift-metrics API); what each means is its HELP text, in `WorkerMetrics.help`.
///
/// | metric | labels |
/// |---|---|
/// | `tally_worker_requests_total` | service, method, outcome (`ok` or the error code answered) |
/// | `tally_worker_request_duration_seconds` (histogram) | service, method |
/// | `tally_worker_request_cpu_seconds` (histogram, one request in 16) | service, method |
/// | `tally_worker_computations_total` | service, method |
///
/// Method labels are the registered method names; anything else is `unknown`, so hostile requests cannot create
/// unbounded label sets.
package final class WorkerMetrics: Sendable {
    private struct Key: Hashable {
        let service: String
        let method: String
    }

    /// One service and method's metrics, each made when first recorded. A class, so that a request finds them all
    /// with one lookup; touched under `methods`' lock only.
    private final class MethodMetrics {
        let service: String
        let method: String
        let factory: any MetricsFactory
        var outcomes: [String: Counter] = [:]
        /// `outcomes["ok"]`, the outcome of nearly every request, kept apart from the others' lookup.
        var ok: Counter?
        var duration: Metrics.Timer?
        var cpu: Metrics.Timer?
        var computations: Counter?

        init(service: String, method: String, factory: any MetricsFactory) {
            self.service = service
            self.method = method
            self.factory = factory
        }

        func outcome(_ code: ErrorCode?) -> Counter {
            if code == nil, let ok { return ok }
            let outcome = code?.rawValue ?? "ok"
            if let counter = outcomes[outcome] { return counter }
            let counter = Counter(
                label: "tally_worker_requests_total",
                dimensions: [("service", service), ("method", method), ("outcome", outcome)], factory: factory)
            outcomes[outcome] = counter
            if code == nil { ok = counter }
            return counter
        }

        func computed() -> Counter {
            if let computations { return computations }
            let counter = Counter(
                label: "tally_worker_computations_total", dimensions: [("service", service), ("method", method)],
                factory: factory)
            computations = counter
            return counter
        }

        func timer(_ label: String) -> Metrics.Timer {
            Metrics.Timer(
                label: label, dimensions: [("service", service), ("method", method)], preferredDisplayUnit: .seconds,
                factory: factory)
        }
    }

    private let methods = Mutex<[Key: MethodMetrics]>([:])
    private let knownMethods: Set<String>
    private let factory: any MetricsFactory

    package static let help: [String: String] = [
        "tally_worker_requests_total":
            "Requests this worker answered, by outcome: ok or the error code of the answer (a method this worker does not serve is labelled method=unknown).",
        "tally_worker_request_duration_seconds":
            "Time this worker spent on a request: decoding, computing and encoding its answer (not the wait in the broker's queue).",
        "tally_worker_request_cpu_seconds":
            "CPU time this worker's thread spent on a request in the dispatcher (decoding, computing, encoding), measured for one request in 16: unlike the wall-clock duration, not inflated by preemption.",
        "tally_worker_computations_total":
            "Requests a method actually ran for; an expired request answered deadline_exceeded on arrival is never computed.",
    ]

    /// - Parameters:
    ///   - methods: the methods served; other names are recorded as `unknown`.
    ///   - factory: where the metrics go; the process-wide backend unless a test passes its own.
    package init(methods: some Sequence<String>, factory: any MetricsFactory = MetricsSystem.factory) {
        knownMethods = Set(methods)
        self.factory = factory
    }

    /// Records one answered request.
    /// - Parameter computed: whether a method handler ran; an expired request answered `deadline_exceeded` on
    ///   arrival was not computed, and this counter is how a drill proves it.
    package func record(
        service: String, method: String?, errorCode: ErrorCode?, computed: Bool = false, duration: Duration
    ) {
        withMetrics(service: service, method: method) { metrics in
            if computed { metrics.computed().increment() }
            metrics.outcome(errorCode).increment()
            if metrics.duration == nil { metrics.duration = metrics.timer("tally_worker_request_duration_seconds") }
            metrics.duration?.recordNanoseconds(Self.nanoseconds(duration))
        }
    }

    /// Records the dispatcher's CPU time for one sampled request.
    package func recordCPU(service: String, method: String?, cpu: Duration) {
        withMetrics(service: service, method: method) { metrics in
            if metrics.cpu == nil { metrics.cpu = metrics.timer("tally_worker_request_cpu_seconds") }
            metrics.cpu?.recordNanoseconds(Self.nanoseconds(cpu))
        }
    }

    /// The metrics of `service` and `method` (`unknown` for a method not served), under the lock.
    private func withMetrics(service: String, method: String?, _ body: (MethodMetrics) -> Void) {
        let method = method.flatMap { knownMethods.contains($0) ? $0 : nil } ?? "unknown"
        let key = Key(service: service, method: method)
        methods.withLock { all in
            if let metrics = all[key] {
                body(metrics)
            } else {
                let metrics = MethodMetrics(service: service, method: method, factory: factory)
                all[key] = metrics
                body(metrics)
            }
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
