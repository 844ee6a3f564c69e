import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol

/// What a load run sends: request kinds with weights, each kind a pool of distinct pre-encoded requests, and each
/// kind one row of the report.
///
/// Built from a mix (`system.ping=3,streak.summary@1y=1`: kind `method[@size]`, optional `=weight`, requests
/// generated) or from request bodies read from files (one kind per method, weighted by how many bodies it has).
package struct Workload: Sendable {
    package struct Entry: Sendable {
        /// The row's name in the report: `streak.summary@1y` for a generated kind, the method for bodies read.
        package var label: String
        package var weight: Int
        /// Distinct requests of this kind, cycled through.
        package var templates: [RequestTemplate]

        package init(label: String, weight: Int, templates: [RequestTemplate]) {
            self.label = label
            self.weight = weight
            self.templates = templates
        }
    }

    package let entries: [Entry]
    /// What the run sends, for the report: the mix as written, or where the bodies came from.
    package let description: String
    /// Cumulative weights, for picking.
    private let thresholds: [Int]

    /// Entries as given.
    /// - Throws: `WorkloadError` when there are none, or one has no request or no positive weight.
    package init(entries: [Entry], description: String) throws {
        guard !entries.isEmpty else { throw WorkloadError("the workload is empty") }
        for entry in entries where entry.templates.isEmpty || entry.weight < 1 {
            throw WorkloadError("'\(entry.label)' needs at least one request and a positive weight")
        }
        self.entries = entries
        self.description = description
        var running = 0
        thresholds = entries.map {
            running += $0.weight
            return running
        }
    }

    /// Builds the pools: `variants` distinct requests per kind, generated from `seed` for `today` in `timeZone`.
    package init(
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
            entries.append(Entry(label: kind.description, weight: weight, templates: templates))
        }
        guard !entries.isEmpty else { throw WorkloadError("the mix is empty") }
        try self.init(entries: entries, description: mix)
    }

    /// Requests read from files, one entry per method (in order of first appearance), each weighted by its number
    /// of bodies so that every body is sent equally often.
    package init(bodies: [RequestTemplate], description: String) throws {
        var order: [String] = []
        var byLabel: [String: [RequestTemplate]] = [:]
        for body in bodies {
            if byLabel[body.label] == nil { order.append(body.label) }
            byLabel[body.label, default: []].append(body)
        }
        let entries = order.map { label in
            let templates = byLabel[label, default: []]
            return Entry(label: label, weight: templates.count, templates: templates)
        }
        try self.init(entries: entries, description: description)
    }

    /// The row names, in entry order.
    package var labels: [String] { entries.map(\.label) }

    /// The entry and template for the `sequence`-th request: kinds by weight, templates in turn (deterministic).
    package func pick(_ sequence: Int) -> (entry: Int, template: RequestTemplate) {
        let total = thresholds[thresholds.count - 1]
        let slot = (sequence &* 7919) % total
        let entryIndex = thresholds.firstIndex { slot < $0 } ?? 0
        let entry = entries[entryIndex]
        return (entryIndex, entry.templates[(sequence / total) % entry.templates.count])
    }

    /// The template for the `sequence`-th request.
    package func template(for sequence: Int) -> RequestTemplate { pick(sequence).template }

    /// Average body size over the kinds, weighted: the raw-echo baseline uses it.
    package var averageBodySize: Int {
        let total = entries.reduce(0) { $0 + $1.weight }
        let weighted = entries.reduce(0) { sum, entry in
            sum + entry.weight * entry.templates.reduce(0) { $0 + $1.size } / entry.templates.count
        }
        return weighted / total
    }
}

/// A load-generation mistake, reported to the operator.
package struct WorkloadError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
