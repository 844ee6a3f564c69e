import ZeroMQ

/// The items one I/O loop waits on — its sockets, its monitors, its inbox's wake-up — each reached through the
/// handle `add` returned, never by its position, so that no loop keeps its own arithmetic of item numbers.
///
/// Items added with `addForOnePoll` (the socket of a short-lived query) follow the permanent ones and are removed
/// by `removeOnePollItems`, keeping the storage: polling allocates nothing.
struct PollSet {
    /// One item of the set.
    struct Item: Hashable, Sendable {
        fileprivate let index: Int
    }

    private var poller = Poller()
    /// Where the items for one poll begin; `nil` while there are none.
    private var onePollStart: Int?

    init() {}

    /// Watches `socket` for `events` from now on.
    mutating func add(_ socket: Socket, for events: PollEvents = .readable) -> Item {
        precondition(onePollStart == nil, "permanent items come before the items of one poll")
        return Item(index: poller.register(socket, for: events))
    }

    /// Watches the wake-up of `inbox`: readable when another thread posted a command.
    mutating func add<Command>(_ inbox: Inbox<Command>) -> Item {
        precondition(onePollStart == nil, "permanent items come before the items of one poll")
        return Item(index: poller.register(fileDescriptor: inbox.wakeup.fileDescriptor))
    }

    /// Watches `socket` for the next poll only (until `removeOnePollItems`).
    mutating func addForOnePoll(_ socket: Socket, for events: PollEvents = .readable) -> Item {
        if onePollStart == nil { onePollStart = poller.count }
        return Item(index: poller.register(socket, for: events))
    }

    /// Forgets the items `addForOnePoll` added.
    mutating func removeOnePollItems() {
        guard let start = onePollStart else { return }
        poller.removeItems(from: start)
        onePollStart = nil
    }

    /// Changes what `item` is watched for (a socket's writability only while something waits to be sent).
    mutating func watch(_ item: Item, for events: PollEvents) {
        poller.watch(item.index, for: events)
    }

    /// Waits until an item is ready or `timeout` passes (`nil`: until an item is ready).
    mutating func poll(timeout: Duration?) throws(ZMQError) {
        try poller.poll(timeout: timeout)
    }

    /// Whether `item` had something to read at the last poll.
    func isReadable(_ item: Item) -> Bool { poller.ready(item.index).contains(.readable) }

    /// Whether `item` could take a message at the last poll.
    func isWritable(_ item: Item) -> Bool { poller.ready(item.index).contains(.writable) }
}
