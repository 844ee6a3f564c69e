import Foundation

/// Pass/fail criteria of a run, as in k6 and CI pipelines: `--max-error-rate` and `--max-p99`. A run whose
/// thresholds fail exits non-zero, saying which failed, so that a script or a CI job need not parse the report.
///
/// Both apply to the whole run (all request kinds together). A threshold whose quantity was not measured fails:
/// a run where nothing ended, or nothing succeeded, proves no latency or error rate is within a limit.
package struct LoadThresholds: Sendable, Hashable {
    /// Largest allowed fraction of failed and unanswered requests (0.01 for 1 %).
    package var maxErrorRate: Double?
    /// Largest allowed p99 latency of successes.
    package var maxP99: Duration?

    package init(maxErrorRate: Double? = nil, maxP99: Duration? = nil) {
        self.maxErrorRate = maxErrorRate
        self.maxP99 = maxP99
    }

    /// The outcome of each threshold that is set, in option order.
    package func evaluate(_ summary: LoadSummary) -> [ThresholdOutcome] {
        var outcomes: [ThresholdOutcome] = []
        if let maxErrorRate {
            outcomes.append(
                ThresholdOutcome(
                    atMost: maxErrorRate, name: "max-error-rate", unit: "fraction", measured: summary.errorRate,
                    quantity: "error rate", unmeasured: "no request ended", format: ReportFormat.percent))
        }
        if let maxP99 {
            outcomes.append(
                ThresholdOutcome(
                    atMost: Double(LoadRunner.microseconds(maxP99)), name: "max-p99", unit: "us",
                    measured: summary.latency.map { Double($0.p99) }, quantity: "p99 of successes",
                    unmeasured: "nothing succeeded", format: { ReportFormat.milliseconds($0) + " ms" }))
        }
        return outcomes
    }

    /// Parses an error-rate limit: a percentage (`1%`, `0.5%`) or a fraction (`0.01`), from 0 to 100 %.
    package static func errorRate(parsing text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let isPercent = trimmed.hasSuffix("%")
        guard let number = Double(isPercent ? String(trimmed.dropLast()) : trimmed), number.isFinite else { return nil }
        let fraction = isPercent ? number / 100 : number
        return (0...1).contains(fraction) ? fraction : nil
    }
}

/// How one threshold fared.
package struct ThresholdOutcome: Encodable, Sendable, Hashable {
    /// The option without dashes: `max-error-rate`, `max-p99`.
    package var name: String
    /// `fraction` for the error rate, `us` (microseconds) for latency.
    package var unit: String
    package var limit: Double
    /// `nil` (JSON `null`) when nothing was measured.
    package var measured: Double?
    package var passed: Bool
    /// For people: `error rate 94.05% > 1%`.
    package var text: String

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(unit, forKey: .unit)
        try container.encode(limit, forKey: .limit)
        try container.encode(measured, forKey: .measured)
        try container.encode(passed, forKey: .passed)
        try container.encode(text, forKey: .text)
    }

    enum CodingKeys: String, CodingKey { case name, unit, limit, measured, passed, text }
}

extension ThresholdOutcome {
    /// An upper limit, which every threshold is: passed when the measured value is at most `limit`, failed when
    /// nothing was measured; its text `error rate 94.05% > 1%`, or `error rate n/a (no request ended), limit 1%`.
    /// - Parameters:
    ///   - quantity: what was measured, for people: `error rate`.
    ///   - unmeasured: why nothing was, for people: `no request ended`.
    ///   - format: the measured value and the limit for people, with their unit.
    init(
        atMost limit: Double, name: String, unit: String, measured: Double?, quantity: String, unmeasured: String,
        format: (Double) -> String
    ) {
        let limitText = format(limit)
        self.init(
            name: name, unit: unit, limit: limit, measured: measured, passed: measured.map { $0 <= limit } ?? false,
            text: measured.map { "\(quantity) \(format($0)) \($0 <= limit ? "≤" : ">") \(limitText)" }
                ?? "\(quantity) n/a (\(unmeasured)), limit \(limitText)")
    }
}
