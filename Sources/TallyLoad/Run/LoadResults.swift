import Histogram
import Synchronization

/// What a run observed, collected from many tasks at once: a latency histogram (microseconds) and counts by
/// outcome.
public final class LoadResults: Sendable {
    struct State {
        var latency = Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
        var answered = 0
        var errors: [String: Int] = [:]
        var unanswered = 0
        var sent = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// A request was sent.
    public func sent() {
        state.withLock { $0.sent += 1 }
    }

    /// A reply arrived after `microseconds`; `errorCode` is nil for a result.
    public func answered(microseconds: UInt64, errorCode: String?) {
        state.withLock { state in
            _ = state.latency.record(max(1, microseconds))
            state.answered += 1
            if let errorCode { state.errors[errorCode, default: 0] += 1 }
        }
    }

    /// No reply arrived within the timeout.
    public func unanswered() {
        state.withLock { $0.unanswered += 1 }
    }

    /// A consistent copy of everything so far.
    public func snapshot(elapsed: Duration) -> LoadSummary {
        state.withLock { state in
            LoadSummary(
                sent: state.sent, answered: state.answered, unanswered: state.unanswered, errors: state.errors,
                elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
                latency: LatencySummary(state.latency))
        }
    }
}
