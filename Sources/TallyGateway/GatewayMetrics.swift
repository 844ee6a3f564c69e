import Metrics
import Synchronization

/// What the gateway records through swift-metrics, for `/metrics` (`--http`): requests by method and status, their
/// latency by method, and its HTTP connections. Series are made once and kept: a request does not look a metric up
/// in the registry, and no caller can grow the series (an unknown method is counted as `other`).
package final class GatewayMetrics: Sendable {
    /// HELP text by metric name, for the Prometheus registry.
    package static let help: [String: String] = [
        "tally_gateway_requests_total":
            "HTTP requests answered, by v1 method (other: no method of Tally's) and HTTP status.",
        "tally_gateway_request_duration_seconds":
            "Time from an HTTP request's head to its answer, by v1 method, in seconds.",
        "tally_gateway_connections_total": "HTTP connections accepted.",
        "tally_gateway_open_connections": "HTTP connections open now.",
    ]

    /// The label of requests that name no method of Tally's.
    static let other = "other"

    private struct Key: Hashable {
        let method: String
        let status: Int
    }

    private let methods: Set<String>
    private let counters = Mutex<[Key: Counter]>([:])
    private let timers: [String: Metrics.Timer]
    let connections = Counter(label: "tally_gateway_connections_total")
    let openConnections = Gauge(label: "tally_gateway_open_connections")
    private let open = Atomic<Int>(0)

    package init(methods: [String]) {
        self.methods = Set(methods)
        var timers: [String: Metrics.Timer] = [:]
        for method in methods + [Self.other] {
            timers[method] = Metrics.Timer(
                label: "tally_gateway_request_duration_seconds", dimensions: [("method", method)])
        }
        self.timers = timers
    }

    /// One answered request.
    func record(method: String?, status: Int, duration: Duration) {
        let label = method.flatMap { methods.contains($0) ? $0 : nil } ?? Self.other
        let key = Key(method: label, status: status)
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: "tally_gateway_requests_total", dimensions: [("method", label), ("status", String(status))])
            counters[key] = counter
            return counter
        }
        counter.increment()
        timers[label]?.record(duration: duration)
    }

    func connectionOpened() {
        connections.increment()
        openConnections.record(open.add(1, ordering: .relaxed).newValue)
    }

    func connectionClosed() {
        openConnections.record(open.subtract(1, ordering: .relaxed).newValue)
    }
}
