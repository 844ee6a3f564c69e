import DequeModule
import ZeroMQ

/// One broker as a client's I/O loop sees it: the DEALER connected to it alone, the PAIR on which that socket's
/// connection events arrive, and the messages the socket has not taken yet. Owned by the I/O thread.
struct BrokerLink {
    let endpoint: String
    let socket: Socket
    /// The socket's connection events.
    let monitor: ConnectionMonitor
    /// Messages of requests this broker holds that its socket refused for now (its queue is full, or the
    /// connection has just gone and the loop has not heard yet), oldest first.
    private(set) var backlog = Deque<(token: UInt64, frames: [Frame])>()

    /// Watches the socket's connection events, then connects it to `endpoint` (in the background).
    init(endpoint: String, socket: Socket, monitorName: String) throws(ZMQError) {
        let monitor = try ConnectionMonitor(watching: socket, name: monitorName, events: .connection)
        do {
            try socket.connect(endpoint)
        } catch {
            socket.close()  // stops its events before their reader goes
            throw error
        }
        self.endpoint = endpoint
        self.socket = socket
        self.monitor = monitor
    }

    /// Sends `frames` now, or keeps them until the socket takes them (`flush`).
    mutating func send(_ frames: [Frame], token: UInt64) {
        if backlog.isEmpty, (try? socket.send(frames, dontWait: true)) == true { return }
        backlog.append((token, frames))
    }

    /// Sends what the socket refused before, as far as it takes it now; messages of requests `isHere` says this
    /// broker no longer holds (answered, expired, moved) are dropped.
    mutating func flush(isHere: (UInt64) -> Bool) {
        while let (token, frames) = backlog.first {
            guard isHere(token) else {
                backlog.removeFirst()
                continue
            }
            guard (try? socket.send(frames, dontWait: true)) == true else { return }
            backlog.removeFirst()
        }
    }

    /// Forgets every message waiting: the broker's requests went elsewhere.
    mutating func clearBacklog() {
        backlog.removeAll()
    }

    /// The connection events that arrived since the last call.
    func events() -> [SocketEvent] { monitor.events() }

    /// Closes the socket, then its monitor (in that order: see `Socket.monitor`).
    func close() {
        socket.close()
        monitor.close()
    }
}
