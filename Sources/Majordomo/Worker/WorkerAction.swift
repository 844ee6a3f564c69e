import ZeroMQ

/// Where a request's reply goes: the connection that brought it, as long as it is the same socket (`generation`),
/// and the client the broker named.
struct ReplyRoute: Sendable, Hashable {
    /// The connection's position in its loop.
    let connection: Int
    let generation: Int
    let client: Frame
}

/// What a worker's I/O loop carries out for its `WorkerStateMachine`, in order.
enum WorkerAction: Sendable, Equatable {
    /// Open a socket for `connection` and connect it to its broker; then tell the machine `connected` (or
    /// `connectFailed`).
    case connect(connection: Int)
    /// Send a command now (READY, HEARTBEAT).
    case send(connection: Int, frames: [Frame])
    /// Send a reply. The replies of one turn may leave together, but before any later `close` or `sayGoodbye`.
    case reply(connection: Int, frames: [Frame])
    /// Compute `request` and tell the machine `completed(route, reply:)`.
    case compute(WorkerRequest, route: ReplyRoute)
    /// Close the connection's socket (the machine already counts it gone, and reconnects it when due).
    case close(connection: Int)
    /// Send DISCONNECT, give it a moment to leave, and close the socket: the connection ends for good.
    case sayGoodbye(connection: Int)
    /// Something for the log.
    case notice(WorkerNotice)
}

/// What a worker's machine has to say about its connections, for the log (the loop words and throttles them).
enum WorkerNotice: Sendable, Equatable {
    /// The broker sent nothing for `silence`: the connection is dropped and made again.
    case brokerSilent(connection: Int, silence: Duration)
    /// The broker sent DISCONNECT: the worker registers again.
    case brokerSentDisconnect(connection: Int)
    /// A message from the broker that is not MDP/0.1 for a worker, dropped.
    case invalidMessage(connection: Int, reason: String)
    /// A reply computed for a socket that has since been closed: the broker gave its request to another worker.
    case replyForClosedConnection(connection: Int)
    /// A socket could not be made or connected; tried again after the reconnect delay.
    case connectFailed(connection: Int, error: String)
}
