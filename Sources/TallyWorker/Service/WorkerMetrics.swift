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
        /// By outcome, but `ok`'s: the outcome of nearly every request, kept apart from this lookup.
        var outcomes: [String: Counter] = [:]
        lazy var ok = makeCounter("tally_worker_requests_total", outcome: "ok")
        lazy var computations = makeCounter("tally_worker_computations_total")
        lazy var duration = makeTimer("tally_worker_request_duration_seconds")
        lazy var cpu = makeTimer("tally_worker_request_cpu_seconds")

        init(service: String, method: String, factory: any MetricsFactory) {
            self.service = service
            self.method = method
            self.factory = factory
        }

        func outcome(_ code: ErrorCode?) -> Counter {
            guard let code else { return ok }
            if let counter = outcomes[code.rawValue] { return counter }
            let counter = makeCounter("tally_worker_requests_total", outcome: code.rawValue)
            outcomes[code.rawValue] = counter
            return counter
        }

        private func makeCounter(_ label: String, outcome: String? = nil) -> Counter {
            Counter(
                label: label,
                dimensions: [("service", service), ("method", method)] + (outcome.map { [("outcome", $0)] } ?? []),
                factory: factory)
        }

        private func makeTimer(_ label: String) -> Metrics.Timer {
            Metrics.Timer(
                label: label, dimensions: [("service", service), ("method", method)], preferredDisplayUnit: .seconds,
                factory: factory)
        }
    }

    private let methods = Mutex<[Key: MethodMetrics]>([:])
    private let knownMethods: Set<String>
    private let factory: any MetricsFactory

    /// The HELP text of every metric `WorkerMetrics` records, by name, for the Prometheus backend to print
    /// (swift-metrics has no place for it).
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
            if computed { metrics.computations.increment() }
            metrics.outcome(errorCode).increment()
            metrics.duration.record(duration: duration)
        }
    }

    /// Records the dispatcher's CPU time for one sampled request.
    package func recordCPU(service: String, method: String?, cpu: Duration) {
        withMetrics(service: service, method: method) { $0.cpu.record(duration: cpu) }
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
}
