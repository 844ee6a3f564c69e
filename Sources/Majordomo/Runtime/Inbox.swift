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
    func post(_ command: Command) {
        commands.withLock { $0.append(command) }
        wakeup.signal()
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
