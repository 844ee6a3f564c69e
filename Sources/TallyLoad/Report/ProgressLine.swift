import Foundation

/// What a run has done so far, on one line of standard error: redrawn in place each second on a terminal, and
/// printed as a line of its own every `--progress-interval` elsewhere (a CI log), where `\r` redraws nothing.
package enum ProgressLine {
    /// `1234.5 successes/s  6200 sent  3 errors  0 no answer  error rate 0.05%  p99 1.234 ms`, the terminal's line.
    package static func live(_ summary: LoadSummary) -> String {
        "\(ReportFormat.rate(summary.successesPerSecond)) successes/s  \(summary.sent) sent  "
            + "\(summary.failed) errors  \(summary.unanswered) no answer  "
            + "error rate \(ReportFormat.percent(summary.errorRate))  p99 \(p99(summary))"
    }

    /// `tally-load: 5.0 s, 1234.5 successes/s, 6200 requests, 3 errors, 0 no answer, error rate 0.05%, p99 1.234 ms`
    /// (then `, target 300/s` in a staged run): the line for a log, every figure of the run so far.
    package static func plain(_ summary: LoadSummary, target: String? = nil) -> String {
        var fields = [
            String(format: "%.1f s", summary.elapsedSeconds),
            "\(ReportFormat.rate(summary.successesPerSecond)) successes/s", "\(summary.sent) requests",
            "\(summary.failed) errors", "\(summary.unanswered) no answer",
            "error rate \(ReportFormat.percent(summary.errorRate))", "p99 \(p99(summary))",
        ]
        if let target { fields.append("target \(target)") }
        return "tally-load: " + fields.joined(separator: ", ")
    }

    static func p99(_ summary: LoadSummary) -> String {
        summary.latency.map { ReportFormat.milliseconds($0.p99) + " ms" } ?? ReportFormat.notMeasured
    }
}
