import CZeroMQ

/// A libzmq socket, owned by one thread.
///
/// ZeroMQ sockets are not thread-safe, so `Socket` is deliberately not `Sendable`: create it on the thread
/// that polls it (Tally gives each role one I/O thread) and close it there. `close()` is idempotent and
/// `deinit` closes a socket that was not closed explicitly. The socket keeps its `Context` alive.
///
/// LINGER is set to 0 at creation: a closing socket drops unsent messages instead of blocking context
/// termination. Roles that must flush replies before closing set a bounded linger first.
package final class Socket {
    /// The context the socket belongs to.
    package let context: Context
    /// Its pattern.
    package let type: SocketType
    private(set) var handle: UnsafeMutableRawPointer?
    /// Whether `monitor(_:events:)` publishes this socket's events, so that `close()` stops it first.
    var isMonitored = false

    /// Creates a socket of `type` in `context`.
    package init(_ context: Context, type: SocketType) throws(ZMQError) {
        guard let handle = zmq_socket(context.handle, type.rawValue) else { throw .last("zmq_socket \(type)") }
        self.context = context
        self.type = type
        self.handle = handle
        try set(.linger, .zero)
    }

    deinit { close() }

    /// Closes the socket; later calls do nothing. Pending outgoing messages are kept only as long as LINGER says.
    ///
    /// A monitored socket stops publishing its events first, at once. `zmq_close` only hands the socket to
    /// libzmq's reaper: its connections close later, on a libzmq I/O thread, and each would publish an event
    /// there. libzmq sends monitor events with a blocking send, so an event bound for a reader that is gone by
    /// then (the owner closes it right after this socket, as it should) stops that I/O thread for good: every
    /// connection it serves stays open and silent, and a peer is left connected to a socket nobody reads.
    package func close() {
        guard let handle else { return }
        stopMonitoring()
        zmq_close(handle)
        self.handle = nil
    }

    /// Whether `close()` has run.
    package var isClosed: Bool { handle == nil }

    func requireHandle(_ operation: @autoclosure () -> String) throws(ZMQError) -> UnsafeMutableRawPointer {
        guard let handle else { throw ZMQError(errno: ENOTSOCK, operation: operation()) }
        return handle
    }

    /// Binds to `endpoint` (`tcp://127.0.0.1:0` picks a free port; read it back with `lastEndpoint`).
    package func bind(_ endpoint: String) throws(ZMQError) {
        try call(zmq_bind, "bind", endpoint)
    }

    /// Connects to `endpoint`; libzmq connects (and reconnects) in the background.
    package func connect(_ endpoint: String) throws(ZMQError) {
        try call(zmq_connect, "connect", endpoint)
    }

    /// Undoes `connect(endpoint)`.
    package func disconnect(_ endpoint: String) throws(ZMQError) {
        try call(zmq_disconnect, "disconnect", endpoint)
    }

    /// Undoes `bind(endpoint)`.
    package func unbind(_ endpoint: String) throws(ZMQError) {
        try call(zmq_unbind, "unbind", endpoint)
    }

    /// Calls one of libzmq's endpoint functions (`zmq_bind`, `zmq_connect`, `zmq_disconnect`, `zmq_unbind`): they
    /// take the socket and the endpoint alike and fail alike, so the error names the operation and the endpoint
    /// (`bind tcp://*:5555`) in one place.
    private func call(
        _ function: (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32, _ operation: String, _ endpoint: String
    ) throws(ZMQError) {
        let handle = try requireHandle("\(operation) \(endpoint)")
        guard function(handle, endpoint) == 0 else { throw .last("\(operation) \(endpoint)") }
    }

    /// The endpoint last bound or connected, with the port resolved (`ZMQ_LAST_ENDPOINT`).
    package var lastEndpoint: String {
        (try? get(.lastEndpoint)) ?? ""
    }
}
