import Metrics
import Prometheus

/// The process's metrics registry in Prometheus text format, installed as the swift-metrics backend.
///
/// Libraries record through the swift-metrics API (`Counter`, `Timer`, `Gauge`) and never see Prometheus;
/// the executable bootstraps this once and serves `render()` on `/metrics`.
public struct PrometheusMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry

    /// Installs a Prometheus registry as the process-wide metrics backend.
    /// - Important: swift-metrics allows one bootstrap per process; call this once, from `main`.
    public static func bootstrap() -> PrometheusMetrics {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Request latencies from tens of microseconds (ping on loopback) to seconds (a queue under load).
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        MetricsSystem.bootstrap(factory)
        return PrometheusMetrics(registry: registry)
    }

    /// The registry in Prometheus text exposition format.
    public func render() -> [UInt8] {
        registry.emitToBuffer()
    }
}
