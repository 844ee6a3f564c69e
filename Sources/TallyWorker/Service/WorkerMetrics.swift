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
        let outcome: String
    }

    private let counters = Mutex<[Key: Counter]>([:])
    private let timers = Mutex<[Key: Metrics.Timer]>([:])
    private let cpuTimers = Mutex<[Key: Metrics.Timer]>([:])
    private let computations = Mutex<[Key: Counter]>([:])
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
        let method = method.flatMap { knownMethods.contains($0) ? $0 : nil } ?? "unknown"
        if computed {
            let computationKey = Key(service: service, method: method, outcome: "")
            computations.withLock { all in
                if all[computationKey] == nil {
                    all[computationKey] = Counter(
                        label: "tally_worker_computations_total",
                        dimensions: [("service", service), ("method", method)], factory: factory)
                }
                all[computationKey]!.increment()
            }
        }
        let outcome = errorCode?.rawValue ?? "ok"
        let counterKey = Key(service: service, method: method, outcome: outcome)
        counters.withLock { all in
            if all[counterKey] == nil {
                all[counterKey] = Counter(
                    label: "tally_worker_requests_total",
                    dimensions: [("service", service), ("method", method), ("outcome", outcome)], factory: factory)
            }
            all[counterKey]!.increment()
        }
        record(duration, of: service, method, in: timers, label: "tally_worker_request_duration_seconds")
    }

    /// Records the dispatcher's CPU time for one sampled request.
    package func recordCPU(service: String, method: String?, cpu: Duration) {
        let method = method.flatMap { knownMethods.contains($0) ? $0 : nil } ?? "unknown"
        record(cpu, of: service, method, in: cpuTimers, label: "tally_worker_request_cpu_seconds")
    }

    private func record(
        _ duration: Duration, of service: String, _ method: String, in timers: borrowing Mutex<[Key: Metrics.Timer]>,
        label: String
    ) {
        let timerKey = Key(service: service, method: method, outcome: "")
        timers.withLock { all in
            if all[timerKey] == nil {
                all[timerKey] = Metrics.Timer(
                    label: label, dimensions: [("service", service), ("method", method)],
                    preferredDisplayUnit: .seconds, factory: factory)
            }
            all[timerKey]!.recordNanoseconds(
                Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
        }
    }
}
