import Prometheus
import Synchronization

/// The standard `process_*` metrics every Prometheus client library exports, with their usual names, types and
/// units, read from `/proc` (``ProcessStatistics``) each time `/metrics` is rendered: nothing runs between scrapes.
///
/// They go straight into the registry rather than through swift-metrics, which has no counter that can be set
/// to a value the kernel keeps. The CPU counter advances by the difference since the last reading, so that it is
/// exactly what the kernel reports.
final class ProcessMetrics: Sendable {
    private let cpu: Counter
    private let resident: Gauge
    private let virtual: Gauge
    private let openDescriptors: Gauge
    private let maxDescriptors: Gauge
    private let startTime: Gauge
    /// The CPU time the counter shows; refreshes are serialised by it, since two scrapes may run at once.
    private let shownCPUSeconds = Mutex<Double>(0)

    init(registry: PrometheusCollectorRegistry) {
        func named(_ name: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
        }
        cpu = registry.makeCounter(
            descriptor: named(
                "process_cpu_seconds_total", "User and system CPU time this process has spent, in seconds."))
        resident = registry.makeGauge(
            descriptor: named("process_resident_memory_bytes", "Resident memory size of this process in bytes."))
        virtual = registry.makeGauge(
            descriptor: named("process_virtual_memory_bytes", "Virtual memory size of this process in bytes."))
        openDescriptors = registry.makeGauge(
            descriptor: named("process_open_fds", "File descriptors this process has open."))
        maxDescriptors = registry.makeGauge(
            descriptor: named("process_max_fds", "Most file descriptors this process may open (its soft limit)."))
        startTime = registry.makeGauge(
            descriptor: named(
                "process_start_time_seconds", "When this process started, in seconds since the Unix epoch."))
        refresh()
    }

    /// Reads `/proc` and updates the metrics; where there is no `/proc` they stay as they are.
    func refresh() {
        guard let statistics = ProcessStatistics.current() else { return }
        shownCPUSeconds.withLock { shown in
            if statistics.cpuSeconds > shown {
                cpu.increment(by: statistics.cpuSeconds - shown)
                shown = statistics.cpuSeconds
            }
            resident.set(statistics.residentMemoryBytes)
            virtual.set(statistics.virtualMemoryBytes)
            openDescriptors.set(statistics.openFileDescriptors)
            maxDescriptors.set(statistics.maxFileDescriptors)
            startTime.set(statistics.startTimeSeconds)
        }
    }
}
