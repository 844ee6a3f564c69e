import MetricsTestKit
import TallyProtocol
@testable import TallyWorker
import Testing

/// The worker's metrics carry HELP text, and hostile method names cannot grow their label sets.
@Suite struct WorkerMetricsTests {
    @Test func everyMetricRecordedHasHelpTextAndEveryHelpTextNamesAMetricRecorded() {
        let recorded = TestMetrics()
        let metrics = WorkerMetrics(methods: ["system.ping"], factory: recorded)
        metrics.record(
            service: "tally.history", method: "system.ping", errorCode: nil, computed: true,
            duration: .microseconds(80))
        metrics.record(
            service: "tally.history", method: "streak.nope", errorCode: .unknownMethod, duration: .microseconds(20))
        metrics.recordCPU(service: "tally.history", method: "streak.nope", cpu: .microseconds(15))

        let created = Set(recorded.counters.map(\.label) + recorded.timers.map(\.label))
        #expect(created == Set(WorkerMetrics.help.keys))
        for (name, help) in WorkerMetrics.help {
            #expect(!help.isEmpty && !help.contains("\n"), "\(name): a HELP text is one non-empty line")
        }
        #expect(
            recorded.counterTotal(
                label: "tally_worker_requests_total",
                dimensions: [("method", "unknown"), ("outcome", "unknown_method")]) == 1)
        let cpu = try? recorded.expectTimer(
            "tally_worker_request_cpu_seconds", [("service", "tally.history"), ("method", "unknown")])
        #expect(cpu?.lastValue == 15_000, "a hostile method name is `unknown` here too")
    }

    /// One request in 16 has its dispatcher CPU time measured, the first included, whatever thread asks.
    @Test func oneRequestInSixteenIsMeasured() {
        let sampler = DispatchCPUSampler()
        let picks = (0..<64).map { _ in sampler.shouldSample() }
        #expect(picks.indices.filter { picks[$0] } == [0, 16, 32, 48])
        let start = DispatchCPUSampler.threadCPUTime()
        var spin = 0
        for value in 0..<2_000_000 { spin &+= value }
        #expect(spin != 0 && DispatchCPUSampler.threadCPUTime() > start, "the thread's clock runs while it works")
    }
}
