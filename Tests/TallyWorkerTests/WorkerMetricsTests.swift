import MetricsTestKit
import TallyProtocol
import TallyWorker
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

        let created = Set(recorded.counters.map(\.label) + recorded.timers.map(\.label))
        #expect(created == Set(WorkerMetrics.help.keys))
        for (name, help) in WorkerMetrics.help {
            #expect(!help.isEmpty && !help.contains("\n"), "\(name): a HELP text is one non-empty line")
        }
        #expect(
            recorded.counterTotal(
                label: "tally_worker_requests_total",
                dimensions: [("method", "unknown"), ("outcome", "unknown_method")]) == 1)
    }
}
