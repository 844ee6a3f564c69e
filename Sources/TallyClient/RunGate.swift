import Synchronization

/// Where a client is in its one life — made, running, stopped — for calls that wait until it runs.
///
/// A call made before the client runs waits for it, within the call's own deadline, as grpc-swift-2's clients do:
/// a backend that starts its HTTP server and its Tally client side by side in one service group need not order
/// them. A call made after the client stopped, or still waiting when it does, ends at once.
final class RunGate: Sendable {
    /// How a wait ended.
    enum Outcome: Sendable, Equatable {
        case running, stopped, timedOut, cancelled
    }

    private enum State {
        case created(waiters: [UInt64: CheckedContinuation<Outcome, Never>])
        case running
        case stopped
    }

    private let state = Mutex(State.created(waiters: [:]))
    private let nextWaiter = Atomic<UInt64>(0)

    /// The client runs: every call waiting goes ahead. A stopped client stays stopped.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            guard case .created(let waiters) = state else { return [] }
            state = .running
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: .running) }
    }

    /// The client stopped, for good: every call waiting ends.
    func close() {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            defer { state = .stopped }
            guard case .created(let waiters) = state else { return [] }
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: .stopped) }
    }

    /// How many calls wait for the client to run.
    var waiting: Int { state.withLock { if case .created(let waiters) = $0 { waiters.count } else { 0 } } }

    /// Returns at once when the client runs or stopped; else waits until it does, until `deadline`, or until the
    /// calling task is cancelled.
    func waitUntilRunning(until deadline: ContinuousClock.Instant) async -> Outcome {
        switch state.withLock({ $0 }) {
        case .running: return .running
        case .stopped: return .stopped
        case .created: break
        }
        let id = nextWaiter.add(1, ordering: .relaxed).newValue
        let timer = Task { [self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            if !Task.isCancelled { end(id, with: .timedOut) }
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                // Checked under the lock that `end` takes: a cancellation or a deadline that came before this
                // registration is seen here, and one after it finds the waiter registered.
                let now = state.withLock { state -> Outcome? in
                    switch state {
                    case .running: return .running
                    case .stopped: return .stopped
                    case .created(var waiters):
                        if Task.isCancelled { return .cancelled }
                        if ContinuousClock.now >= deadline { return .timedOut }
                        waiters[id] = continuation
                        state = .created(waiters: waiters)
                        return nil
                    }
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            end(id, with: .cancelled)
        }
    }

    /// Ends waiter `id`'s wait with `outcome`, if it still waits.
    private func end(_ id: UInt64, with outcome: Outcome) {
        let waiter = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard case .created(var waiters) = state, let waiter = waiters.removeValue(forKey: id) else { return nil }
            state = .created(waiters: waiters)
            return waiter
        }
        waiter?.resume(returning: outcome)
    }
}
