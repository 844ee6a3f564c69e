import Dispatch
import Foundation

/// A dedicated OS thread for one role's socket loop.
///
/// libzmq calls block (`zmq_poll`), and blocking a Swift concurrency pool thread would starve every other task
/// (there is one pool thread per core), so each role's sockets live on a thread of their own. `join()` lets
/// async code wait for the loop to end without blocking.
final class IOThread: Sendable {
    private let finished = DispatchGroup()

    /// Starts `body` on a new thread named `name` (visible in debuggers and `top -H`).
    init(name: String, body: @escaping @Sendable () -> Void) {
        let finished = self.finished
        finished.enter()
        let thread = Thread {
            body()
            finished.leave()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits for the loop to end.
    func join() async {
        await withCheckedContinuation { continuation in
            finished.notify(queue: .global()) { continuation.resume() }
        }
    }

    /// Waits for the loop to end, blocking the calling thread (never call from async code).
    func joinBlocking() {
        finished.wait()
    }
}

/// Monotonic time since a fixed origin, as the state machines take it.
struct MonotonicClock: Sendable {
    private let origin = ContinuousClock.now

    var now: Duration { ContinuousClock.now - origin }
}
