import CoreMetrics
import Prometheus

/// The swift-metrics backend of a Tally process: registers each metric in a Prometheus registry together with its
/// HELP text, looked up by metric name.
///
/// swift-metrics has no place for a description, and swift-prometheus' own `PrometheusMetricsFactory` registers
/// everything that comes through it with none. Help cannot be added beside that factory either: the registry stops
/// the process when one name is registered with two different help texts. So this factory takes its place, and
/// the modules that record metrics publish their help by name (`BrokerMetrics.help`, `WorkerMetrics.help`).
///
/// A name missing from `help` is registered without a HELP line; `promtool check metrics` reports it, and the
/// end-to-end tests run promtool.
struct DescribedMetricsFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry
    /// HELP text by metric name.
    let help: [String: String]
    /// Buckets of every `Timer` (a duration histogram).
    let durationBuckets: [Duration]
    /// Buckets of every aggregating `Recorder` (a value histogram); Tally records none, swift-prometheus' defaults.
    let valueBuckets: [Double]

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        return registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: valueBuckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions, buckets: durationBuckets)
    }

    /// The metric's whole name and its help: Tally's names already end in their unit, so there is no unit part.
    private func descriptor(_ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help[name] ?? "")
    }

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? Histogram<Double> { registry.unregisterValueHistogram(histogram) }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? Histogram<Duration> { registry.unregisterDurationHistogram(histogram) }
    }
}
