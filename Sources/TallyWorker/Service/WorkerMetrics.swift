import Metrics
import Synchronization
import TallyProtocol

/// Worker-side metrics (through the swift-metrics API):
///
/// | metric | labels | meaning |
/// |---|---|---|
/// | `tally_worker_requests_total` | service, method, outcome | `ok` or the error code answered |
/// | `tally_worker_request_duration_seconds` | service, method | decode + compute + encode (histogram) |
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
    private let knownMethods: Set<String>

    public init(methods: some Sequence<String>) {
        knownMethods = Set(methods)
    }

    /// Records one answered request.
    public func record(service: String, method: String?, errorCode: ErrorCode?, duration: Duration) {
        let method = method.flatMap { knownMethods.contains($0) ? $0 : nil } ?? "unknown"
        let outcome = errorCode?.rawValue ?? "ok"
        let counterKey = Key(service: service, method: method, outcome: outcome)
        counters.withLock { all in
            if all[counterKey] == nil {
                all[counterKey] = Counter(
                    label: "tally_worker_requests_total", dimensions: [("service", service), ("method", method), ("outcome", outcome)])
            }
            all[counterKey]!.increment()
        }
        let timerKey = Key(service: service, method: method, outcome: "")
        timers.withLock { all in
            if all[timerKey] == nil {
                all[timerKey] = Metrics.Timer(
                    label: "tally_worker_request_duration_seconds", dimensions: [("service", service), ("method", method)],
                    preferredDisplayUnit: .seconds)
            }
            all[timerKey]!.recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
        }
    }
}
