import Metrics
import Synchronization
import TallyProtocol

/// Worker-side metrics (through the swift-metrics API):
///
/// | metric | labels | meaning |
/// |---|---|---|
/// | `tally_worker_requests_total` | service, method, outcome | `ok` or the error code answered |
/// | `tally_worker_request_duration_seconds` | service, method | decode + compute + encode (histogram) |
/// | `tally_worker_computations_total` | service, method | requests a method handler actually ran for |
///
/// Method labels are the registered method names; anything else is `unknown`, so hostile requests cannot create
/// unbounded label sets.
public final class WorkerMetrics: Sendable {
    private struct Key: Hashable {
        let service: String
        let method: String
        let outcome: String
    }

    private let counters = Mutex<[Key: Counter]>([:])
    private let timers = Mutex<[Key: Metrics.Timer]>([:])
    private let computations = Mutex<[Key: Counter]>([:])
    private let knownMethods: Set<String>

    public init(methods: some Sequence<String>) {
        knownMethods = Set(methods)
    }

    /// Records one answered request.
    /// - Parameter computed: whether a method handler ran; an expired request answered `deadline_exceeded` on
    ///   arrival was not computed, and this counter is how a drill proves it.
    public func record(
        service: String, method: String?, errorCode: ErrorCode?, computed: Bool = false, duration: Duration
    ) {
        let method = method.flatMap { knownMethods.contains($0) ? $0 : nil } ?? "unknown"
        if computed {
            let computationKey = Key(service: service, method: method, outcome: "")
            computations.withLock { all in
                if all[computationKey] == nil {
                    all[computationKey] = Counter(
                        label: "tally_worker_computations_total",
                        dimensions: [("service", service), ("method", method)])
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
                    dimensions: [("service", service), ("method", method), ("outcome", outcome)])
            }
            all[counterKey]!.increment()
        }
        let timerKey = Key(service: service, method: method, outcome: "")
        timers.withLock { all in
            if all[timerKey] == nil {
                all[timerKey] = Metrics.Timer(
                    label: "tally_worker_request_duration_seconds",
                    dimensions: [("service", service), ("method", method)],
                    preferredDisplayUnit: .seconds)
            }
            all[timerKey]!.recordNanoseconds(
                Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
        }
    }
}
