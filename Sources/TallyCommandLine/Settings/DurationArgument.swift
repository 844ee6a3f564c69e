import ArgumentParser
import Foundation
import TallyCalendar

/// A duration on the command line, in the environment or in a configuration file: `250ms`, `2.5s`, `1m`, `1m30s`,
/// `1h15m`, or a bare number of milliseconds.
///
/// Compound forms are what operators type for load runs and timeouts (`--duration 1m30s`, as in Go, k6 and
/// Kubernetes); units must go from larger to smaller (`30s1m` is a typo, not 90 seconds), each at most once.
/// Values are whole milliseconds (rounded).
package struct DurationArgument: ExpressibleByArgument, Sendable, Hashable, Comparable, CustomStringConvertible {
    package let duration: Duration

    package init(_ duration: Duration) { self.duration = duration }

    package init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        if let milliseconds = Int64(text) {
            guard milliseconds >= 0 else { return nil }
            duration = .milliseconds(milliseconds)
            return
        }
        guard let milliseconds = Self.milliseconds(inCompound: text) else { return nil }
        duration = .milliseconds(milliseconds)
    }

    /// `NUMBERunit` parts (`1m30s`, `2.5s`) in whole milliseconds (`CompoundDuration`'s grammar).
    private static func milliseconds(inCompound text: String) -> Int64? {
        // Beyond what a Duration of milliseconds holds (centuries): not a duration anyone meant.
        guard let total = CompoundDuration.milliseconds(Substring(text)), total < 1e15 else { return nil }
        return Int64(total.rounded())
    }

    package var description: String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.duration < rhs.duration }

    package static var defaultCompletionKind: CompletionKind { .default }
}
