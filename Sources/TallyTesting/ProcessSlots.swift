import Foundation
import Synchronization

/// A counting semaphore for tests that start real processes: at most `capacity` slots are held at once across every
/// suite of the test run, whatever Swift Testing runs in parallel (see ``RealProcessesTrait``).
///
/// Why: Swift Testing starts every suite at once, and on a two-core machine dozens of brokers, workers and load
/// generators started together are descheduled for long stretches; a test's waits then measure the crowd, not the
/// behaviour. Waiters are served in arrival order.
package final class ProcessSlots: Sendable {
    /// The one budget of the test process: `TALLY_TEST_PROCESS_SLOTS` if set, else six slots per core.
    ///
    /// Six per core because most of these tests wait (for a registration, a timeout, a process to exit) far more
    /// than they compute. Measured on two cores, the whole suite: with no limit 31–35 s (idle) and 34–37 s (beside
    /// a CPU-bound process); 4 slots 54 s idle; 8 slots 35–37 s idle but 43–51 s busy; 12 slots 34–37 s either
    /// way. It holds the test clusters alive at once to 12 instead of the dozens Swift Testing would start.
    package static let shared = ProcessSlots(
        capacity: ProcessInfo.processInfo.environment["TALLY_TEST_PROCESS_SLOTS"].flatMap { Int($0) }.map { max(1, $0) }
            ?? 6 * ProcessInfo.processInfo.activeProcessorCount)

    package let capacity: Int

    private struct State {
        var free: Int
        /// Waiters in arrival order, with how many slots each asked for.
        var waiters: [(slots: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    package init(capacity: Int) {
        precondition(capacity >= 1, "a budget of at least one slot")
        self.capacity = capacity
        state = Mutex(State(free: capacity))
    }

    /// How many wait for a slot now.
    package var waiting: Int { state.withLock { $0.waiters.count } }

    /// Runs `body` while holding `count` slots (at most the capacity); waits for them first when they are taken.
    /// A test that starts a whole network of processes holds several, so that fewer others crowd it, and it them.
    package func withSlot<Result>(count: Int = 1, _ body: () async throws -> Result) async rethrows -> Result {
        let count = min(max(1, count), capacity)
        await acquire(count)
        defer { release(count) }
        return try await body()
    }

    private func acquire(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                // Nobody overtakes an earlier waiter, even one that asks for more than is free.
                if state.waiters.isEmpty, state.free >= count {
                    state.free -= count
                    return true
                }
                state.waiters.append((count, continuation))
                return false
            }
            if granted { continuation.resume() }
        }
    }

    private func release(_ count: Int) {
        // Slots pass straight to the waiters at the front, in order, as far as they go: no later arrival can take
        // them in between.
        let next = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.free += count
            var granted: [CheckedContinuation<Void, Never>] = []
            while let first = state.waiters.first, first.slots <= state.free {
                state.free -= first.slots
                granted.append(state.waiters.removeFirst().continuation)
            }
            return granted
        }
        for continuation in next { continuation.resume() }
    }
}
