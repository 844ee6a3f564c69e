import Metrics
import Testing

@testable import TallyMonitoring

/// The exposition of a Tally process: HELP text from the catalog for what swift-metrics records, the process
/// metrics and the build's info.
@Suite struct PrometheusMetricsTests {
    func lines(_ metrics: PrometheusMetrics) -> [String] {
        String(decoding: metrics.render(), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func metricsRecordedThroughSwiftMetricsGetTheirHelpByName() {
        let metrics = PrometheusMetrics(
            help: [
                "things_total": "Things counted.", "thing_seconds": "How long a thing took.",
                "things_waiting": "Things waiting.", "thing_sizes": "Sizes of things.",
            ], version: "1.2.3")
        Counter(label: "things_total", dimensions: [("kind", "a")], factory: metrics.factory).increment(by: 2)
        Counter(label: "things_total", dimensions: [("kind", "b")], factory: metrics.factory).increment()
        Metrics.Timer(label: "thing_seconds", factory: metrics.factory).recordMilliseconds(3)
        Gauge(label: "things_waiting", factory: metrics.factory).record(4)
        Recorder(label: "thing_sizes", factory: metrics.factory).record(7)
        Counter(label: "undescribed_total", factory: metrics.factory).increment()

        let exposition = lines(metrics)
        for (name, help, type) in [
            ("things_total", "Things counted.", "counter"), ("thing_seconds", "How long a thing took.", "histogram"),
            ("things_waiting", "Things waiting.", "gauge"), ("thing_sizes", "Sizes of things.", "histogram"),
        ] {
            #expect(exposition.filter { $0 == "# HELP \(name) \(help)" }.count == 1, "\(name): one HELP line")
            #expect(exposition.filter { $0 == "# TYPE \(name) \(type)" }.count == 1, "\(name): one TYPE line")
        }
        #expect(exposition.contains(#"things_total{kind="a"} 2"#))
        #expect(!exposition.contains { $0.hasPrefix("# HELP undescribed_total") }, "no help invented")
        #expect(exposition.contains("# TYPE undescribed_total counter"))
    }

    @Test func theBuildAndTheProcessAreThereBeforeAnythingIsRecorded() {
        let exposition = lines(PrometheusMetrics(help: [:], version: "1.2.3"))
        #expect(exposition.contains(#"tally_build_info{version="1.2.3"} 1.0"#))
        #expect(exposition.contains("# TYPE tally_build_info gauge"))
        #expect(exposition.contains("# TYPE process_cpu_seconds_total counter"))
        for gauge in [
            "process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds", "process_max_fds",
            "process_start_time_seconds",
        ] {
            #expect(exposition.contains("# TYPE \(gauge) gauge"))
            #expect(exposition.contains { $0.hasPrefix("# HELP \(gauge) ") })
            #expect(exposition.contains { $0.hasPrefix("\(gauge) ") && !$0.hasSuffix(" 0.0") }, "\(gauge) is read")
        }
    }

    @Test func theCPUCounterFollowsTheKernelAcrossScrapes() throws {
        let metrics = PrometheusMetrics(help: [:], version: "1.2.3")
        func cpuSeconds() throws -> Double {
            let line = try #require(lines(metrics).first { $0.hasPrefix("process_cpu_seconds_total ") })
            return try #require(Double(line.dropFirst("process_cpu_seconds_total ".count)))
        }
        let first = try cpuSeconds()
        // Spend some CPU: at least two clock ticks.
        let clock = ContinuousClock()
        let start = clock.now
        var sum = 0
        while clock.now - start < .milliseconds(100) { sum &+= Int.random(in: 0...9) }
        #expect(sum >= 0)
        let second = try cpuSeconds()
        #expect(second > first)
        let kernel = try #require(ProcessStatistics.current()).cpuSeconds
        #expect(abs(kernel - second) < 0.5, "what the kernel says, give or take what ran since")
    }
}
