/// How one threshold fared.
package struct ThresholdOutcome: Encodable, Sendable, Hashable {
    /// The option without dashes: `max-error-rate`, `max-p95`, `max-p99`, `max-p999`, `max-unanswered`.
    package var name: String
    /// The method whose rows it covers; `nil` (JSON `null`) for the whole run.
    package var method: String?
    /// `fraction` for a rate, `us` (microseconds) for latency, `requests` for a count.
    package var unit: String
    package var limit: Double
    /// `nil` (JSON `null`) when nothing was measured.
    package var measured: Double?
    package var passed: Bool
    /// For people: `error rate 94.05% > 1%`.
    package var text: String

    package init(
        name: String, method: String? = nil, unit: String, limit: Double, measured: Double?, passed: Bool,
        text: String
    ) {
        self.name = name
        self.method = method
        self.unit = unit
        self.limit = limit
        self.measured = measured
        self.passed = passed
        self.text = text
    }

    /// The option as given, for people: `--max-p99`, `--max-p99 workout.day`.
    package var option: String { "--\(name)" + (method.map { " \($0)" } ?? "") }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(method, forKey: .method)
        try container.encode(unit, forKey: .unit)
        try container.encode(limit, forKey: .limit)
        try container.encode(measured, forKey: .measured)
        try container.encode(passed, forKey: .passed)
        try container.encode(text, forKey: .text)
    }

    enum CodingKeys: String, CodingKey { case name, method, unit, limit, measured, passed, text }
}

extension ThresholdOutcome {
    /// An upper limit, which every threshold is: passed when the measured value is at most `limit`, failed when
    /// nothing was measured; its text `error rate 94.05% > 1%`, or `error rate n/a (no request ended), limit 1%`.
    /// - Parameters:
    ///   - quantity: what was measured, for people: `error rate`.
    ///   - unmeasured: why nothing was, for people: `no request ended`.
    ///   - format: the measured value and the limit for people, with their unit.
    init(
        atMost limit: Double, name: String, method: String?, unit: String, measured: Double?, quantity: String,
        unmeasured: String, format: (Double) -> String
    ) {
        let limitText = format(limit)
        self.init(
            name: name, method: method, unit: unit, limit: limit, measured: measured,
            passed: measured.map { $0 <= limit } ?? false,
            text: measured.map { "\(quantity) \(format($0)) \($0 <= limit ? "≤" : ">") \(limitText)" }
                ?? "\(quantity) n/a (\(unmeasured)), limit \(limitText)")
    }
}
