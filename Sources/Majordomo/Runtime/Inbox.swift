import Synchronization
import ZeroMQ

/// Work handed to an I/O thread by other threads: a locked list plus a wake-up descriptor that the thread's
/// poller watches. Sockets never cross threads; commands do.
///
/// When its thread ends, the owner closes the inbox: later posts are refused, so that a caller waiting for an
/// answer (a status, a reply) learns at once that none will come instead of waiting for ever.
final class Inbox<Command: Sendable>: Sendable {
    private struct Queue {
        var commands: [Command] = []
        var isClosed = false
    }

    private let queue = Mutex(Queue())
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
    /// - Returns: `false` if the owning thread has ended (the command was not queued).
    @discardableResult
    func post(_ command: Command) -> Bool {
        let outcome: Bool? = queue.withLock { queue in
            guard !queue.isClosed else { return nil }
            queue.commands.append(command)
            return queue.commands.count == 1
        }
        guard let wasEmpty = outcome else { return false }
        if wasEmpty { wakeup.signal() }
        return true
    }

    /// Takes everything queued so far (owning thread only).
    ///
    /// The list is handed over whole and a new one starts empty. Keeping its capacity instead would cost a copy of
    /// the whole buffer on every take (the taken array still shares it), and after one burst of 100,000 posts
    /// every later wake-up would allocate and clear a buffer that size.
    func takeAll() -> [Command] {
        wakeup.drain()
        return queue.withLock { queue in
            defer { queue.commands = [] }
            return queue.commands
        }
    }

    /// Refuses every later post and returns what was queued and never taken (owning thread only, as it ends).
    func close() -> [Command] {
        queue.withLock { queue in
            queue.isClosed = true
            defer { queue.commands = [] }
            return queue.commands
        }
    }
}
