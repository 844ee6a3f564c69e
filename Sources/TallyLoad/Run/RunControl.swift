import Synchronization

/// Tells a run to stop starting requests before its end (a signal, or `--abort-on-fail`), and remembers why: the
/// requests in flight still finish, and the report covers what was measured until then.
package final class RunControl: Sendable {
    /// Why a run stopped early.
    package enum Reason: Sendable, Hashable {
        /// SIGINT or SIGTERM, by number.
        case signal(Int32)
        /// A threshold that `--abort-on-fail` watched failed; what it measured, for people.
        case thresholdFailed(String)
    }

    private let stopped = Atomic(false)
    private let first = Mutex<Reason?>(nil)

    package init() {}

    /// Stops the run for `reason`, unless it was stopped already (the first reason is the one that counts).
    /// - Returns: whether this call stopped it.
    @discardableResult
    package func stop(_ reason: Reason) -> Bool {
        let isFirst = first.withLock { current in
            guard current == nil else { return false }
            current = reason
            return true
        }
        if isFirst { stopped.store(true, ordering: .releasing) }
        return isFirst
    }

    /// Whether the run must start no more requests: read before each one, so one atomic load.
    package var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Why the run stopped early; `nil` while it was not.
    package var reason: Reason? { first.withLock { $0 } }

    /// How often a wait looks whether the run was stopped: the most a stop is noticed late by a loop waiting for
    /// its next request.
    static let slice: Duration = .milliseconds(50)

    /// Sleeps until `deadline`, or less once the run is stopped; always suspends once, as a plain sleep does, so a
    /// schedule that fell behind still lets its requests' tasks run. (Waiting loops are not cancelled instead:
    /// cancelling the run's tasks would cut the requests in flight too, and they are to finish.)
    func sleep(until deadline: ContinuousClock.Instant, clock: ContinuousClock) async {
        repeat {
            try? await Task.sleep(until: min(deadline, clock.now + Self.slice), clock: clock)
        } while !isStopped && clock.now < deadline
    }
}
