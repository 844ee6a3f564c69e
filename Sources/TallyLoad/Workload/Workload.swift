import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol

/// What a load run sends: request kinds with weights, each kind a pool of distinct pre-encoded requests.
///
/// Written `system.ping=3,streak.summary@1y=1`: kind `method[@size]`, optional `=weight`.
public struct Workload: Sendable {
    public struct Entry: Sendable {
        public var kind: RequestKind
        public var weight: Int
        /// Distinct requests of this kind, cycled through.
        public var templates: [RequestTemplate]
    }

    public let entries: [Entry]
    /// Cumulative weights, for picking.
    private let thresholds: [Int]

    /// Builds the pools: `variants` distinct requests per kind, generated from `seed` for `today` in `timeZone`.
    public init(
        mix: String, seed: UInt64, today: LocalDate, timeZone: String = "Europe/Berlin", variants: Int = 8
    ) throws {
        var entries: [Entry] = []
        var generator = StepDataGenerator(seed: seed)
        for item in mix.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1)
            let weight = parts.count == 2 ? Int(parts[1]) : 1
            guard let weight, weight > 0 else {
                throw WorkloadError("'\(item)': the weight must be a positive integer")
            }
            let kind = try RequestKind(parsing: String(parts[0]))
            let templates = try (0..<max(1, variants)).map { _ in
                try kind.template(generator: &generator, today: today, timeZone: timeZone)
            }
            entries.append(Entry(kind: kind, weight: weight, templates: templates))
        }
        guard !entries.isEmpty else { throw WorkloadError("the mix is empty") }
        self.entries = entries
        var running = 0
        thresholds = entries.map {
            running += $0.weight; return running
        }
    }

    /// The template for the `sequence`-th request: kinds by weight, templates in turn (deterministic).
    public func template(for sequence: Int) -> RequestTemplate {
        let total = thresholds.last!
        let slot = (sequence &* 7919) % total
        let entryIndex = thresholds.firstIndex { slot < $0 }!
        let entry = entries[entryIndex]
        return entry.templates[(sequence / total) % entry.templates.count]
    }

    /// Average body size over the kinds, weighted: the raw-echo baseline uses it.
    public var averageBodySize: Int {
        let total = entries.reduce(0) { $0 + $1.weight }
        let weighted = entries.reduce(0) { sum, entry in
            sum + entry.weight * entry.templates.reduce(0) { $0 + $1.size } / entry.templates.count
        }
        return weighted / total
    }
}

/// A load-generation mistake, reported to the operator.
public struct WorkloadError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
