import Synchronization
import ZeroMQ

/// Work handed to an I/O thread by other threads: a locked list plus a wake-up descriptor that the thread's
/// poller watches. Sockets never cross threads; commands do.
final class Inbox<Command: Sendable>: Sendable {
    private let commands = Mutex<[Command]>([])
    /// Register `wakeup.fileDescriptor` in the owning thread's poller.
    let wakeup: WakeupSignal

    init() throws(ZMQError) {
        wakeup = try WakeupSignal()
    }

    /// Queues a command and wakes the owning thread. Safe from any thread.
    ///
    /// Only the post that finds the list empty writes to the wake-up pipe: until the owner takes the list, a
    /// wake-up is already on its way (`takeAll` drains the pipe before it empties the list, so a post that lands
    /// between the two is taken with the rest). Under load this saves a system call per request per hop.
    func post(_ command: Command) {
        let wasEmpty = commands.withLock { queued in
            queued.append(command)
            return queued.count == 1
        }
        if wasEmpty { wakeup.signal() }
    }

    /// Takes everything queued so far (owning thread only).
    func takeAll() -> [Command] {
        wakeup.drain()
        return commands.withLock { queued in
            defer { queued.removeAll(keepingCapacity: true) }
            return queued
        }
    }
}
