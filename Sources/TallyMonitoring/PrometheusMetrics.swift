import Metrics
import Prometheus

/// The process's metrics registry in Prometheus text format, installed as the swift-metrics backend.
///
/// Libraries record through the swift-metrics API (`Counter`, `Timer`, `Gauge`) and never see Prometheus;
/// the executable bootstraps this once and serves `render()` on `/metrics`. Beside what the libraries record, the
/// registry holds what every Prometheus exporter is expected to have: the `process_*` metrics (``ProcessMetrics``)
/// and `tally_build_info{version="…"} 1`, so that a dashboard can tell which build each instance runs.
package struct PrometheusMetrics: Sendable {
    package let registry: PrometheusCollectorRegistry
    /// The swift-metrics backend that records into `registry`, with HELP text.
    package let factory: any MetricsFactory
    private let process: ProcessMetrics

    /// Request latencies from tens of microseconds (ping on loopback) to seconds (a queue under load).
    static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]

    /// A registry with the process metrics and the build's info, whose `factory` is not installed anywhere (tests
    /// record through it directly; a process calls ``bootstrap(help:version:)``).
    /// - Parameters:
    ///   - help: HELP text by metric name for what will be recorded through swift-metrics (`BrokerMetrics.help`).
    ///   - version: the build's version, the `version` label of `tally_build_info`.
    package init(help: [String: String], version: String) {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        factory = DescribedMetricsFactory(
            registry: registry, help: help, durationBuckets: Self.durationBuckets,
            valueBuckets: PrometheusMetricsFactory(registry: registry).defaultValueHistogramBuckets)
        process = ProcessMetrics(registry: registry)
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "tally_build_info", unitName: "",
                helpText: "The Tally build this process runs, in its labels; always 1."),
            labels: [("version", version)]
        ).set(1.0)
    }

    /// Installs a Prometheus registry as the process-wide metrics backend.
    /// - Important: swift-metrics allows one bootstrap per process; call this once, from `main`.
    package static func bootstrap(help: [String: String], version: String) -> PrometheusMetrics {
        let metrics = PrometheusMetrics(help: help, version: version)
        MetricsSystem.bootstrap(metrics.factory)
        return metrics
    }

    /// The registry in Prometheus text exposition format, with the process metrics read just now.
    package func render() -> [UInt8] {
        process.refresh()
        return registry.emitToBuffer()
    }
}
