import Foundation
import TallyLoad
import Testing

/// The report's two forms: JSON with a stable shape (what Benchmarks/e2e_table.py and the end-to-end tests read)
/// and text in one unit.
@Suite struct LoadReportTests {
    func mixedRun() -> LoadSnapshot {
        let results = LoadResults(labels: ["system.ping", "streak.summary@1y"])
        for index in 0..<200 {
            let row = index % 4 == 0 ? 1 : 0
            results.sent(row)
            if index % 10 == 3 {
                results.answered(row, microseconds: 80, errorCode: "overloaded")
            } else {
                results.answered(row, microseconds: UInt64(400 + index), errorCode: nil)
            }
        }
        return results.snapshot(elapsed: .seconds(1))
    }

    func json(_ report: LoadReport) throws -> [String: Any] {
        let data = try JSONEncoder().encode(report)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theJSONShapeHasEveryRowAndNullsForWhatWasNotMeasured() throws {
        let echo = LoadResults(labels: ["raw echo"])
        let report = LoadReport(
            mix: "system.ping=3,streak.summary@1y=1", pacing: "closed loop 4 in flight", snapshot: mixedRun(),
            baseline: echo.total(elapsed: .seconds(1)), thresholds: LoadThresholds(maxErrorRate: 0.5))
        let object = try json(report)
        let summaryKeys: Set = [
            "sent", "answered", "succeeded", "failed", "unanswered", "in_flight", "errors", "error_rate",
            "elapsed_seconds",
            "successes_per_second", "answers_per_second", "latency", "error_latency",
        ]
        let tally = try #require(object["tally"] as? [String: Any])
        #expect(Set(tally.keys) == summaryKeys)
        #expect(tally["succeeded"] as? Int == 180 && tally["failed"] as? Int == 20)
        #expect(tally["successes_per_second"] as? Double == 180)
        let latency = try #require(tally["latency"] as? [String: Any])
        #expect(
            Set(latency.keys) == [
                "count", "min_us", "mean_us", "stddev_us", "p50_us", "p90_us", "p95_us", "p99_us", "p99_9_us", "max_us",
            ])
        let methods = try #require(object["methods"] as? [[String: Any]])
        #expect(methods.map { $0["method"] as? String } == ["system.ping", "streak.summary@1y"])
        #expect(methods.allSatisfy { Set($0.keys) == summaryKeys.union(["method"]) })
        #expect(methods.compactMap { $0["sent"] as? Int }.reduce(0, +) == 200)
        // The echo measured nothing here: null, not 0, and no ratio of it.
        let baseline = try #require(object["baseline"] as? [String: Any])
        #expect(baseline["latency"] is NSNull && baseline["error_rate"] is NSNull)
        #expect(object["throughput_ratio"] is NSNull && object["p50_latency_ratio"] is NSNull)
        let thresholds = try #require(object["thresholds"] as? [[String: Any]])
        #expect(
            thresholds.first?["name"] as? String == "max-error-rate" && thresholds.first?["passed"] as? Bool == true)
        #expect(object["passed"] as? Bool == true)
        #expect(object["stopped_by"] is NSNull && object["stages"] is NSNull, "a steady run that ran to its end")
        #expect(tally["in_flight"] as? Int == 0)
    }

    @Test func aStoppedStagedRunSaysSoAndCountsWhatWasStillInFlight() throws {
        let results = LoadResults(labels: ["system.ping"])
        for index in 0..<10 {
            results.sent(0)
            if index < 7 { results.answered(0, microseconds: 500, errorCode: nil) }
        }
        let stages = LoadStages(stages: [
            .init(duration: .seconds(10), target: 100), .init(duration: .seconds(5), target: 0),
        ])
        var report = LoadReport(
            mix: "system.ping", pacing: LoadRunner.Pacing.openLoopStages(stages).text,
            snapshot: results.snapshot(elapsed: .seconds(1)), baseline: nil,
            thresholds: LoadThresholds([.init(.p99, method: "system.ping", latency: .milliseconds(1))]))
        report.stages = stages
        report.stoppedBy = "SIGINT"
        let object = try json(report)
        #expect(object["stopped_by"] as? String == "SIGINT")
        #expect(object["pacing"] as? String == "open loop stages 10s→100/s, 5s→0/s")
        let stageRows = try #require(object["stages"] as? [[String: Any]])
        #expect(stageRows.map { $0["duration_seconds"] as? Double } == [10, 5])
        #expect(stageRows.map { $0["target"] as? Double } == [100, 0])
        let tally = try #require(object["tally"] as? [String: Any])
        #expect(
            tally["in_flight"] as? Int == 3 && tally["unanswered"] as? Int == 0 && tally["error_rate"] as? Double == 0)
        let threshold = try #require((object["thresholds"] as? [[String: Any]])?.first)
        #expect(threshold["method"] as? String == "system.ping" && threshold["passed"] as? Bool == true)
        let text = report.text
        #expect(
            text.contains(
                "stopped early (SIGINT): the figures are of the run until then; 3 requests still in flight are not counted"
            ),
            "\(text)")
        #expect(
            text.contains("threshold --max-p99 system.ping: p99 of successes 0.500 ms ≤ 1.000 ms: passed"), "\(text)")
    }

    @Test func theTextIsInMillisecondsWithARowPerMethodAndAll() {
        let report = LoadReport(
            mix: "m", pacing: "p", snapshot: mixedRun(), baseline: nil,
            thresholds: LoadThresholds(maxErrorRate: 0.05, maxP99: .milliseconds(250)))
        let text = report.text
        let lines = text.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasPrefix("system.ping ") } && lines.contains { $0.hasPrefix("streak.summary@1y ") })
        #expect(lines.contains { $0.hasPrefix("all ") })
        #expect(text.contains("latency of successes, ms") && text.contains("latency of errors, ms"))
        #expect(!text.contains("µs") && !text.contains(" us"), "one unit: \(text)")
        #expect(text.contains("errors by code: overloaded 20"))
        #expect(text.contains("threshold --max-error-rate: error rate 10% > 5%: FAILED"), "\(text)")
        #expect(text.contains("threshold --max-p99: p99 of successes 0.598 ms ≤ 250.000 ms: passed"), "\(text)")
        #expect(!report.passed)
    }

    @Test func aRunWhereNothingSucceededSaysNotAvailable() {
        let results = LoadResults(labels: ["system.ping"])
        for _ in 0..<5 {
            results.sent(0)
            results.unanswered(0)
        }
        let report = LoadReport(
            mix: "system.ping", pacing: "p", snapshot: results.snapshot(elapsed: .seconds(1)), baseline: nil,
            thresholds: LoadThresholds(maxP99: .seconds(1)))
        let latencyRow = report.text.split(separator: "\n").first { $0.hasPrefix("system.ping") && $0.contains("n/a") }
        let cells = latencyRow?.split(separator: " ") ?? []
        #expect(cells == ["system.ping", "0"] + Array(repeating: "n/a", count: 9), "no latency of 0: \(report.text)")
        #expect(report.thresholds.first?.passed == false, "nothing succeeded proves no p99")
        #expect(report.thresholds.first?.text.contains("n/a") == true)
    }
}
