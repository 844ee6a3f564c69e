import Foundation

/// Pass/fail criteria of a run, as in k6 and CI pipelines: limits on the error rate, on the p95, p99 and p99.9
/// latency of successes, and on requests left unanswered, each for the whole run or for one method's rows. A run
/// whose thresholds fail exits non-zero, saying which failed, so that a script or a CI job need not parse the
/// report.
///
/// A threshold whose quantity was not measured fails: a run where nothing ended, or nothing succeeded, proves no
/// latency or error rate is within a limit.
package struct LoadThresholds: Sendable, Hashable {
    /// What a threshold limits, named by its option; in the order outcomes are reported.
    package enum Quantity: String, Sendable, Hashable, CaseIterable {
        case errorRate = "max-error-rate"
        case p95 = "max-p95"
        case p99 = "max-p99"
        case p999 = "max-p999"
        case unanswered = "max-unanswered"

        /// The percentile a latency threshold limits; `nil` for the others.
        var percentile: Double? {
            switch self {
            case .p95: 95
            case .p99: 99
            case .p999: 99.9
            case .errorRate, .unanswered: nil
            }
        }
    }

    /// One threshold: an upper limit on a quantity of the whole run or of one method.
    package struct Limit: Sendable, Hashable {
        package var quantity: Quantity
        /// The method (or row label) whose rows it covers; `nil` for the whole run.
        package var method: String?
        /// A fraction for the error rate (0.01 for 1 %), microseconds for a latency, a count or a fraction of
        /// ended requests for unanswered ones.
        package var value: Double
        /// Whether an unanswered limit is a share of the requests that ended (`1%`) rather than a count (`10`).
        package var isFraction: Bool

        package init(_ quantity: Quantity, method: String? = nil, value: Double, isFraction: Bool? = nil) {
            self.quantity = quantity
            self.method = method
            self.value = value
            self.isFraction = isFraction ?? (quantity == .errorRate)
        }

        /// A latency limit.
        package init(_ quantity: Quantity, method: String? = nil, latency: Duration) {
            self.init(quantity, method: method, value: Double(LoadRunner.microseconds(latency)), isFraction: false)
        }
    }

    /// In the order given; `evaluate` reports them by quantity, then in that order.
    package var limits: [Limit]

    package init(_ limits: [Limit] = []) { self.limits = limits }

    /// Today's two whole-run thresholds.
    package init(maxErrorRate: Double? = nil, maxP99: Duration? = nil) {
        self.init(
            (maxErrorRate.map { [Limit(.errorRate, value: $0)] } ?? [])
                + (maxP99.map { [Limit(.p99, latency: $0)] } ?? []))
    }

    /// Whether any `--max-unanswered` was given: then unanswered requests alone do not make the exit status 3.
    package var limitsUnanswered: Bool { limits.contains { $0.quantity == .unanswered } }

    /// The methods thresholds name that cover none of `labels` (the rows of the run): a typo, found before the run.
    package func unknownMethods(among labels: [String]) -> [String] {
        limits.compactMap(\.method).filter { method in
            !labels.contains { LoadSnapshot.method(method, covers: $0) }
        }
    }

    /// Each threshold's outcome over `snapshot`: by quantity, then in the order given.
    package func evaluate(_ snapshot: LoadSnapshot) -> [ThresholdOutcome] {
        ordered.map { limit in Self.outcome(of: limit, in: snapshot.summary(covering: limit.method)) }
    }

    /// Each threshold's outcome over `summary`, taken for whatever rows it covers.
    package func evaluate(_ summary: LoadSummary) -> [ThresholdOutcome] {
        ordered.map { Self.outcome(of: $0, in: summary) }
    }

    var ordered: [Limit] {
        let rank = Dictionary(uniqueKeysWithValues: Quantity.allCases.enumerated().map { ($1, $0) })
        return limits.enumerated().sorted {
            (rank[$0.element.quantity]!, $0.offset) < (rank[$1.element.quantity]!, $1.offset)
        }.map(\.element)
    }

    /// `summary` is `nil` when the method covers no row: nothing measured.
    static func outcome(of limit: Limit, in summary: LoadSummary?) -> ThresholdOutcome {
        let name = limit.quantity.rawValue
        switch limit.quantity {
        case .errorRate:
            return ThresholdOutcome(
                atMost: limit.value, name: name, method: limit.method, unit: "fraction",
                measured: summary?.errorRate, quantity: "error rate", unmeasured: "no request ended",
                format: ReportFormat.percent)
        case .p95, .p99, .p999:
            let percentile = limit.quantity.percentile ?? 99
            let label = limit.quantity == .p999 ? "p99.9" : "p\(Int(percentile))"
            let measured = summary?.latency.map { latency in
                switch limit.quantity {
                case .p95: latency.p95
                case .p999: latency.p999
                default: latency.p99
                }
            }
            return ThresholdOutcome(
                atMost: limit.value, name: name, method: limit.method, unit: "us",
                measured: measured.map { Double($0) },
                quantity: "\(label) of successes", unmeasured: "nothing succeeded",
                format: { ReportFormat.milliseconds($0) + " ms" })
        case .unanswered where limit.isFraction:
            let measured = summary.flatMap { $0.finished > 0 ? Double($0.unanswered) / Double($0.finished) : nil }
            return ThresholdOutcome(
                atMost: limit.value, name: name, method: limit.method, unit: "fraction", measured: measured,
                quantity: "unanswered", unmeasured: "no request ended", format: ReportFormat.percent)
        case .unanswered:
            return ThresholdOutcome(
                atMost: limit.value, name: name, method: limit.method, unit: "requests",
                measured: summary.map { Double($0.unanswered) }, quantity: "unanswered",
                unmeasured: "no request ended", format: { String(Int($0)) })
        }
    }

    /// Parses an error-rate limit: a percentage (`1%`, `0.5%`) or a fraction (`0.01`), from 0 to 100 %.
    package static func errorRate(parsing text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let isPercent = trimmed.hasSuffix("%")
        guard let number = Double(isPercent ? String(trimmed.dropLast()) : trimmed), number.isFinite else { return nil }
        let fraction = isPercent ? number / 100 : number
        return (0...1).contains(fraction) ? fraction : nil
    }

    /// Parses an unanswered limit: a count (`0`, `10`) or a percentage of the requests that ended (`1%`).
    package static func unanswered(parsing text: String) -> (value: Double, isFraction: Bool)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let count = Int(trimmed), count >= 0 { return (Double(count), false) }
        guard trimmed.hasSuffix("%"), let fraction = errorRate(parsing: trimmed) else { return nil }
        return (fraction, true)
    }

    /// Splits a threshold's value into the method it names and the limit: `workout.day=80ms` is
    /// `("workout.day", "80ms")`, a bare `80ms` is `(nil, "80ms")`.
    package static func scope(of text: String) -> (method: String?, limit: String) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return (nil, text) }
        return (parts[0].trimmingCharacters(in: .whitespaces), String(parts[1]))
    }
}
