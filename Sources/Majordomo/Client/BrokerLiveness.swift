import ZeroMQ

/// How a client notices a broker that stopped answering without closing its connection: a host that lost power or
/// its link, a firewall that started dropping, a process stopped. No TCP reset ever comes then, and the connection
/// looks healthy until the kernel gives up on it, many minutes later.
///
/// Each broker connection carries ZMTP heartbeats (`ZMQ_HEARTBEAT_IVL`): a PING every `interval`, which a
/// broker's libzmq answers on its own I/O thread, however busy the broker is. When nothing at all arrives for
/// `timeout` after a PING (no PONG, no reply), libzmq drops the connection (`ZMQ_HEARTBEAT_TIMEOUT`); the client
/// then sends what that broker held to another one at once. A connection attempt that gets no answer within
/// `timeout` is given up and tried again (`ZMQ_CONNECT_TIMEOUT`), so a broker that comes back is reached within
/// about as long.
///
/// - Important: a broker on a ZeroMQ stack older than ZMTP 3.1 (libzmq before 4.2) does not answer PINGs, and
///   an idle connection to it would be dropped every `timeout`: turn heartbeats off for it (`interval` `nil`).
package struct BrokerLiveness: Sendable, Hashable {
    /// How often each broker connection is sent a PING; `nil` for no heartbeats (then a broker whose host
    /// vanishes is noticed only when TCP gives up).
    package var interval: Duration?
    /// How long a connection waits for anything from its broker after a PING, and a connection attempt for an
    /// answer, before it is dropped.
    package var timeout: Duration

    /// - Parameters:
    ///   - interval: 250 ms by default: the broker's silence is noticed between `timeout` and `timeout` plus this.
    ///   - timeout: 1 s by default: a round trip and a busy machine's scheduling delays several times over, and
    ///     short enough that a caller rarely notices the move.
    package init(interval: Duration? = .milliseconds(250), timeout: Duration = .seconds(1)) {
        self.interval = interval
        self.timeout = timeout
    }

    /// No heartbeats: the broker is taken for lost only when its connection closes.
    package static let off = BrokerLiveness(interval: nil)

    /// Sets the options on a broker connection's socket, before it connects.
    func apply(to socket: Socket) throws(ZMQError) {
        guard let interval, interval > .zero else { return }
        try socket.set(.heartbeatInterval, interval)
        try socket.set(.heartbeatTimeout, timeout)
        try socket.set(.connectTimeout, timeout)
    }
}
