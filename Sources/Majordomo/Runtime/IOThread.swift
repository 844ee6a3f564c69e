import CLinux
import Dispatch
import Foundation

/// A dedicated OS thread for one role's socket loop.
///
/// libzmq calls block (`zmq_poll`), and blocking a Swift concurrency pool thread would starve every other task
/// (there is one pool thread per core), so each role's sockets live on a thread of their own. `join()` lets
/// async code wait for the loop to end without blocking.
final class IOThread: Sendable {
    private let finished = DispatchGroup()

    /// Starts `body` on a new thread named `name` (visible in debuggers and `top -H`). Threads that compute
    /// requests need a main thread's stack (`stackSize`), since parsing recurses once per nesting level.
    init(name: String, stackSize: Int = 1 << 20, body: @escaping @Sendable () -> Void) {
        let finished = self.finished
        finished.enter()
        let thread = Thread {
            // Foundation's `name` does not reach the OS thread on Linux, where a new thread keeps its creator's name
            // (often a dispatch pool's).
            _ = tally_name_current_thread(name)
            body()
            finished.leave()
        }
        thread.name = name
        thread.stackSize = stackSize
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
