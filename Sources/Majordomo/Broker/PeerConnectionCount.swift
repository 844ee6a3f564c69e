import ZeroMQ

/// The broker socket's open peer connections, counted from its socket monitor (`zmq_socket_monitor`): accepted
/// minus disconnected.
///
/// Why a monitor: the console shows how many clients are connected, and the alternative, remembering the routing
/// ids of clients seen lately, would cost a hash and an insert per request on the broker's thread. The monitor
/// costs one event per connection opened or closed, nothing per message. It counts transport connections of every
/// peer, workers included (each worker connection is a socket of its own); the console subtracts the registered
/// worker connections to estimate clients. A connection refused by the CURVE handshake is accepted and then
/// disconnected, so it leaves the count as it found it.
struct PeerConnectionCount {
    /// The events the count needs.
    static let events: SocketEvent.Kind = [.accepted, .disconnected]

    private(set) var open = 0

    mutating func record(_ event: SocketEvent) {
        if event.kind.contains(.accepted) { open += 1 }
        // Never below zero, should libzmq drop an event from a full monitor queue.
        if event.kind.contains(.disconnected) { open = max(0, open - 1) }
    }
}
