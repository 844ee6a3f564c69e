import ZeroMQ

/// Limits every Tally socket applies to what peers may send.
package struct TransportLimits: Sendable, Hashable {
    /// Largest message part; a peer sending a larger one is disconnected by libzmq (`ZMQ_MAXMSGSIZE`).
    package var maxFrameBytes: Int64 = 16 << 20
    /// Frames kept per message; longer messages are drained and treated as malformed.
    package var maxFrames: Int = 32
    /// Queue limit per peer in messages (`ZMQ_SNDHWM`/`ZMQ_RCVHWM`).
    package var highWaterMark: Int32 = 10_000

    package init() {}

    /// Body frames a client request may carry. A worker receives the body behind five frames of its own
    /// (delimiter, header, command, client, delimiter) under the same `maxFrames`, so a longer body would reach it
    /// truncated, be dropped there, and leave the request unanswered and the worker's slot held for ever.
    package var maxRequestBodyFrames: Int { maxFrames - 5 }

    /// What every role's socket to its peers gets, after the options of its own: these limits, how the role notices
    /// a peer gone silent (`SocketLiveness`), and the role's `SocketSetup` hook last, so that it may override any of
    /// them.
    func configure(_ socket: Socket, liveness: some SocketLiveness, setup: SocketSetup?) throws(ZMQError) {
        try socket.set(.maxMessageSize, maxFrameBytes)
        try socket.set(.sendHighWaterMark, highWaterMark)
        try socket.set(.receiveHighWaterMark, highWaterMark)
        try liveness.apply(to: socket)
        try setup?(socket)
    }
}

/// The options by which a role's socket notices that a peer went silent without closing its connection (a host that
/// lost power or its link): TCP keepalive for brokers and workers, ZMTP heartbeats for clients.
protocol SocketLiveness: Sendable {
    func apply(to socket: Socket) throws(ZMQError)
}

extension TCPLiveness: SocketLiveness {}

extension BrokerLiveness: SocketLiveness {}
