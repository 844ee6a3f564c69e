import ZeroMQ

/// The PAIR socket on which a socket's connection events arrive (`zmq_socket_monitor`), read by the loop that owns
/// both.
///
/// libzmq publishes the events with a blocking send from the monitored socket's I/O thread: the PAIR takes them
/// without a limit, so that a burst of connections between two turns of the loop can never stop that thread, and
/// every event (each lost connection above all) is read.
struct ConnectionMonitor {
    let socket: Socket

    /// Watches `watched` for `events`; call before it binds or connects, so that no connection goes unseen.
    /// - Parameter name: an `inproc://` address unique in the context.
    init(watching watched: Socket, name: String, events: SocketEvent.Kind) throws(ZMQError) {
        try watched.monitor(name, events: events)
        let socket = try Socket(watched.context, type: .pair)
        try socket.set(.receiveHighWaterMark, 0)
        try socket.connect(name)
        self.socket = socket
    }

    /// The events that arrived since the last call, oldest first.
    func events() -> [SocketEvent] {
        var events: [SocketEvent] = []
        while let message = try? socket.receive(maxFrames: 4, dontWait: true) {
            if let event = SocketEvent(frames: message.frames) { events.append(event) }
        }
        return events
    }

    /// Closes the monitor; close the watched socket first (see `Socket.monitor`).
    func close() { socket.close() }
}
