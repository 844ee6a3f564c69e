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
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    package init(capacity: Int) {
        precondition(capacity >= 1, "a budget of at least one slot")
        self.capacity = capacity
        state = Mutex(State(free: capacity))
    }

    /// How many wait for a slot now.
    package var waiting: Int { state.withLock { $0.waiters.count } }

    /// Runs `body` while holding one slot; waits for one first when all are taken.
    package func withSlot<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        // The slot passes straight to the first waiter, if any: no later arrival can take it in between.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
