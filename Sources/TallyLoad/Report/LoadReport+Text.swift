import Foundation

extension LoadReport {
    /// The report for people, one unit for every latency (milliseconds) and `n/a` for what was not measured:
    ///
    /// ```
    /// tally-load: system.ping; closed loop 100 in flight; 10.003 s
    ///
    /// request        sent  succeeded  errors  no answer  error rate  successes/s  answers/s
    /// system.ping   17927       1066   16861          0      94.05%        106.6     1792.2
    ///
    /// latency of successes, ms    count     min    mean  stddev     p50 …
    /// ```
    ///
    /// A row per request kind, and `all` when there are several; the errors' latencies only when there are
    /// errors; the raw echo and the ratios with `--baseline`; thresholds last.
    package var text: String {
        var rows = methods.map { ($0.method, $0.summary) }
        if rows.count > 1 { rows.append(("all", tally)) }
        if let baseline { rows.append(("raw echo", baseline)) }
        var lines = ["tally-load: \(mix); \(pacing); \(String(format: "%.3f", tally.elapsedSeconds)) s"]
        if let stoppedBy {
            let waiting = tally.inFlight > 0 ? "; \(tally.inFlight) requests still in flight are not counted" : ""
            lines.append("stopped early (\(stoppedBy)): the figures are of the run until then\(waiting)")
        }
        lines.append("")
        lines += Self.table(
            header: ["request", "sent", "succeeded", "errors", "no answer", "error rate", "successes/s", "answers/s"],
            rows: rows.map { label, summary in
                [
                    label, "\(summary.sent)", "\(summary.succeeded)", "\(summary.failed)", "\(summary.unanswered)",
                    ReportFormat.percent(summary.errorRate), ReportFormat.rate(summary.successesPerSecond),
                    ReportFormat.rate(summary.answersPerSecond),
                ]
            })
        lines.append("")
        lines += Self.latencyTable("latency of successes, ms", rows.map { ($0.0, $0.1.latency) })
        let errorRows = rows.filter { $0.1.errorLatency != nil }
        if !errorRows.isEmpty {
            lines.append("")
            lines += Self.latencyTable("latency of errors, ms", errorRows.map { ($0.0, $0.1.errorLatency) })
        }
        lines.append("")
        lines.append("errors by code: \(Self.codes(tally.errors))")
        if methods.count > 1 {
            for row in methods where !row.summary.errors.isEmpty {
                lines.append("  \(row.method): \(Self.codes(row.summary.errors))")
            }
        }
        if tally.unanswered > 0 {
            lines.append("requests without an answer within the timeout: \(tally.unanswered)")
        }
        if brokers.contains(where: { $0.losses > 0 }) {
            let shown = brokers.map { "\($0.endpoint) \($0.losses)×" }.joined(separator: ", ")
            lines.append("broker connections lost during the run (their requests were sent again): \(shown)")
        }
        if baseline != nil {
            lines.append(
                "tally / raw echo: throughput \(throughputRatio.map { ReportFormat.percent($0) } ?? ReportFormat.notMeasured), "
                    + "p50 latency \(p50LatencyRatio.map { String(format: "%.2f×", $0) } ?? ReportFormat.notMeasured)")
        }
        for threshold in thresholds {
            lines.append("threshold \(threshold.option): \(threshold.text): \(threshold.passed ? "passed" : "FAILED")")
        }
        return lines.joined(separator: "\n")
    }

    static func codes(_ errors: [String: Int]) -> String {
        errors.isEmpty
            ? "none" : errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    static func latencyTable(_ title: String, _ rows: [(String, LatencySummary?)]) -> [String] {
        table(
            header: [title, "count", "min", "mean", "stddev", "p50", "p90", "p95", "p99", "p99.9", "max"],
            rows: rows.map { label, latency in
                guard let latency else {
                    return [label, "0"] + Array(repeating: ReportFormat.notMeasured, count: 9)
                }
                return [label, "\(latency.count)"]
                    + [latency.min].map { ReportFormat.milliseconds($0) }
                    + [latency.mean, latency.standardDeviation].map { ReportFormat.milliseconds($0) }
                    + [latency.p50, latency.p90, latency.p95, latency.p99, latency.p999, latency.max].map {
                        ReportFormat.milliseconds($0)
                    }
            })
    }

    /// Columns padded to their widest cell: the first left-aligned, the others right-aligned.
    static func table(header: [String], rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { cells in
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}
