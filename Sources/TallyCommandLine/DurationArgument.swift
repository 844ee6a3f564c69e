import ArgumentParser
import Foundation

/// A duration on the command line or in the environment: `250ms`, `2.5s`, `1m`, or a bare number of milliseconds.
public struct DurationArgument: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    public let duration: Duration

    public init(_ duration: Duration) { self.duration = duration }

    public init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let value = Double(text.dropLast(unit.suffix.count)), value.isFinite, value >= 0 else { return nil }
            duration = .milliseconds(Int64((value * unit.seconds * 1000).rounded()))
            return
        }
        guard let milliseconds = Int64(text), milliseconds >= 0 else { return nil }
        duration = .milliseconds(milliseconds)
    }

    public var description: String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    public static var defaultCompletionKind: CompletionKind { .default }
}
