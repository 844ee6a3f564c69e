import CZeroMQ

/// Readiness conditions for `Poller`.
package struct PollEvents: OptionSet, Sendable, Hashable {
    package let rawValue: Int16

    package init(rawValue: Int16) { self.rawValue = rawValue }

    package static let readable = PollEvents(rawValue: Int16(ZMQ_POLLIN))
    package static let writable = PollEvents(rawValue: Int16(ZMQ_POLLOUT))
    package static let error = PollEvents(rawValue: Int16(ZMQ_POLLERR))
}

/// Waits on several sockets and plain file descriptors at once (`zmq_poll`).
///
/// An I/O thread registers the sockets it owns plus a `WakeupSignal`'s descriptor, so that other threads can
/// hand it work without sharing a socket. Built once per loop and reused: polling allocates nothing.
///
/// - Important: a registered socket must stay open while the poller is used; build a new poller after
///   closing one.
package struct Poller {
    private var items: [zmq_pollitem_t] = []

    package init() {}

    /// Watches `socket` for `events`.
    /// - Returns: the item's index, for `ready(_:)`.
    @discardableResult
    package mutating func register(_ socket: Socket, for events: PollEvents = .readable) -> Int {
        items.append(zmq_pollitem_t(socket: socket.handle, fd: -1, events: events.rawValue, revents: 0))
        return items.count - 1
    }

    /// Watches a file descriptor (e.g. `WakeupSignal.fileDescriptor`) for `events`.
    @discardableResult
    package mutating func register(fileDescriptor: Int32, for events: PollEvents = .readable) -> Int {
        items.append(zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: events.rawValue, revents: 0))
        return items.count - 1
    }

    /// Changes what item `index` is watched for (a socket's writability only while something waits to be sent).
    package mutating func watch(_ index: Int, for events: PollEvents) {
        items[index].events = events.rawValue
    }

    /// How many items are registered.
    package var count: Int { items.count }

    /// Removes the items from `index` on (those registered for one poll only), keeping the storage.
    package mutating func removeItems(from index: Int) {
        items.removeSubrange(index...)
    }

    /// Waits until an item is ready or `timeout` passes (`nil`: wait indefinitely).
    /// - Returns: how many items are ready; 0 on timeout or when a signal interrupted the wait (EINTR is not an
    ///   error here: the caller's loop simply goes round again).
    /// - Throws: `ZMQError.terminated` once the context is shut down.
    @discardableResult
    package mutating func poll(timeout: Duration?) throws(ZMQError) -> Int {
        let milliseconds: Int
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            // Round up so that a 0.4 ms wait does not become a busy 0 ms poll.
            milliseconds = max(
                0, Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
        } else {
            milliseconds = -1
        }
        let count = items.withUnsafeMutableBufferPointer { buffer in
            zmq_poll(buffer.baseAddress, Int32(buffer.count), milliseconds)
        }
        if count < 0 {
            let error = ZMQError.last("zmq_poll")
            if error == .interrupted { return 0 }
            throw error
        }
        return Int(count)
    }

    /// What item `index` is ready for after the last `poll`.
    package func ready(_ index: Int) -> PollEvents { PollEvents(rawValue: items[index].revents) }
}
