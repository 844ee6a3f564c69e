import Foundation

/// Pass/fail criteria of a run, as in k6 and CI pipelines: `--max-error-rate` and `--max-p99`. A run whose
/// thresholds fail exits non-zero, saying which failed, so that a script or a CI job need not parse the report.
///
/// Both apply to the whole run (all request kinds together). A threshold whose quantity was not measured fails:
/// a run where nothing ended, or nothing succeeded, proves no latency or error rate is within a limit.
public struct LoadThresholds: Sendable, Hashable {
    /// Largest allowed fraction of failed and unanswered requests (0.01 for 1 %).
    public var maxErrorRate: Double?
    /// Largest allowed p99 latency of successes.
    public var maxP99: Duration?

    public init(maxErrorRate: Double? = nil, maxP99: Duration? = nil) {
        self.maxErrorRate = maxErrorRate
        self.maxP99 = maxP99
    }

    /// The outcome of each threshold that is set, in option order.
    public func evaluate(_ summary: LoadSummary) -> [ThresholdOutcome] {
        var outcomes: [ThresholdOutcome] = []
        if let maxErrorRate {
            let measured = summary.errorRate
            let limitText = ReportFormat.percent(maxErrorRate)
            outcomes.append(
                ThresholdOutcome(
                    name: "max-error-rate", unit: "fraction", limit: maxErrorRate, measured: measured,
                    passed: measured.map { $0 <= maxErrorRate } ?? false,
                    text: measured.map {
                        "error rate \(ReportFormat.percent($0)) \($0 <= maxErrorRate ? "≤" : ">") \(limitText)"
                    }
                        ?? "error rate n/a (no request ended), limit \(limitText)"))
        }
        if let maxP99 {
            let limit = Double(LoadRunner.microseconds(maxP99))
            let measured = summary.latency.map { Double($0.p99) }
            let limitText = ReportFormat.milliseconds(limit) + " ms"
            outcomes.append(
                ThresholdOutcome(
                    name: "max-p99", unit: "us", limit: limit, measured: measured,
                    passed: measured.map { $0 <= limit } ?? false,
                    text: measured.map {
                        "p99 of successes \(ReportFormat.milliseconds($0)) ms \($0 <= limit ? "≤" : ">") \(limitText)"
                    }
                        ?? "p99 of successes n/a (nothing succeeded), limit \(limitText)"))
        }
        return outcomes
    }

    /// Parses an error-rate limit: a percentage (`1%`, `0.5%`) or a fraction (`0.01`), from 0 to 100 %.
    public static func errorRate(parsing text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let isPercent = trimmed.hasSuffix("%")
        guard let number = Double(isPercent ? String(trimmed.dropLast()) : trimmed), number.isFinite else { return nil }
        let fraction = isPercent ? number / 100 : number
        return (0...1).contains(fraction) ? fraction : nil
    }
}

/// How one threshold fared.
public struct ThresholdOutcome: Encodable, Sendable, Hashable {
    /// The option without dashes: `max-error-rate`, `max-p99`.
    public var name: String
    /// `fraction` for the error rate, `us` (microseconds) for latency.
    public var unit: String
    public var limit: Double
    /// `nil` (JSON `null`) when nothing was measured.
    public var measured: Double?
    public var passed: Bool
    /// For people: `error rate 94.05% > 1%`.
    public var text: String

    public func encode(to encoder: any Encoder) throws {
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
