import Foundation
import Histogram
import Synchronization

/// What a run observed, collected from many tasks at once, per row of the report (a request kind) and for all of
/// them: how many requests were sent, succeeded, failed (by error code) and got no answer, and the latencies of
/// successes and of errors in separate histograms (microseconds).
///
/// Successes and errors are kept apart because they are different populations: an `overloaded` answered by the
/// broker in 50 µs is not a fast request, and mixing it in would make an overloaded run look quick.
package final class LoadResults: Sendable {
    /// One row's counts and latencies.
    struct Row {
        var successes = LoadResults.histogram()
        var errors = LoadResults.histogram()
        var sent = 0
        var succeeded = 0
        var failed = 0
        var unanswered = 0
        var errorCodes: [String: Int] = [:]

        /// Adds `other`'s requests to these: the rows of one method together.
        mutating func add(_ other: Row) {
            successes.add(other.successes)
            errors.add(other.errors)
            sent += other.sent
            succeeded += other.succeeded
            failed += other.failed
            unanswered += other.unanswered
            errorCodes.merge(other.errorCodes, uniquingKeysWith: +)
        }

        mutating func record(microseconds: UInt64, errorCode: String?) {
            if let errorCode {
                _ = errors.record(max(1, microseconds))
                failed += 1
                errorCodes[errorCode, default: 0] += 1
            } else {
                _ = successes.record(max(1, microseconds))
                succeeded += 1
            }
        }
    }

    struct State {
        var rows: [Row]
        var all = Row()
    }

    /// The slowest latency kept apart from the others (an hour; `tally-load --timeout` is at most that).
    package static let highestTrackableMicroseconds: UInt64 = 3_600_000_000

    static func histogram() -> Histogram<UInt64> {
        Histogram(
            lowestDiscernibleValue: 1, highestTrackableValue: highestTrackableMicroseconds,
            numberOfSignificantValueDigits: .three)
    }

    package let labels: [String]
    private let state: Mutex<State>

    /// - Parameter labels: the rows, in order; requests are reported by index into it.
    package init(labels: [String]) {
        self.labels = labels
        state = Mutex(State(rows: Array(repeating: Row(), count: labels.count)))
    }

    /// A request of row `row` was sent.
    package func sent(_ row: Int) {
        state.withLock { state in
            state.rows[row].sent += 1
            state.all.sent += 1
        }
    }

    /// A reply arrived after `microseconds`; `errorCode` is nil for a result.
    package func answered(_ row: Int, microseconds: UInt64, errorCode: String?) {
        state.withLock { state in
            state.rows[row].record(microseconds: microseconds, errorCode: errorCode)
            state.all.record(microseconds: microseconds, errorCode: errorCode)
        }
    }

    /// No reply arrived within the timeout.
    package func unanswered(_ row: Int) {
        state.withLock { state in
            state.rows[row].unanswered += 1
            state.all.unanswered += 1
        }
    }

    /// Everything so far: all rows together, and each row. The histograms are copied under the lock and read
    /// after it, so that recording goes on while percentiles are computed.
    package func snapshot(elapsed: Duration) -> LoadSnapshot {
        let copy = state.withLock { $0 }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return LoadSnapshot(
            all: LoadSummary(copy.all, elapsedSeconds: seconds),
            rows: zip(labels, copy.rows).map {
                LoadSnapshot.Row(label: $0, summary: LoadSummary($1, elapsedSeconds: seconds))
            },
            successLatencies: copy.all.successes, rawAll: copy.all, rawRows: copy.rows, elapsedSeconds: seconds)
    }

    /// All rows together, without the per-row summaries: for a progress line.
    package func total(elapsed: Duration) -> LoadSummary {
        let copy = state.withLock { $0.all }
        return LoadSummary(
            copy, elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
}

/// A consistent copy of a run's results.
package struct LoadSnapshot: Sendable {
    /// One request kind's results.
    package struct Row: Sendable {
        package var label: String
        package var summary: LoadSummary
    }

    package var all: LoadSummary
    package var rows: [Row]
    /// The latencies of all successes, for the percentile distribution (`--hgrm`).
    package var successLatencies: Histogram<UInt64>
    /// What the summaries were made of, for thresholds of one method.
    var rawAll: LoadResults.Row
    var rawRows: [LoadResults.Row]
    var elapsedSeconds: Double

    /// Whether a threshold's `method` covers the row `label`: the label itself (`streak.summary@1y`), or its method
    /// (`streak.summary` covers every size of it).
    package static func method(_ method: String, covers label: String) -> Bool {
        label == method || label.split(separator: "@", maxSplits: 1).first.map(String.init) == method
    }

    /// The rows `method` covers, added together; all of them for `nil`; `nil` when it covers none.
    func row(covering method: String?) -> LoadResults.Row? {
        guard let method else { return rawAll }
        let covered = zip(rows, rawRows).filter { Self.method(method, covers: $0.0.label) }.map(\.1)
        guard var total = covered.first else { return nil }
        for row in covered.dropFirst() { total.add(row) }
        return total
    }

    /// The summary of the rows `method` covers (the whole run for `nil`); `nil` when it covers none.
    package func summary(covering method: String?) -> LoadSummary? {
        guard let method else { return all }
        return row(covering: method).map { LoadSummary($0, elapsedSeconds: elapsedSeconds) }
    }
}
