import ZeroMQ

/// The connection events of a client's socket, per broker endpoint (`BrokerConnection`).
struct ConnectionLog {
    private struct Entry {
        var connectedAt: Duration?
        var lostAt: Duration?
        var failedAttempts = 0
        var handshakeFailed = false
    }

    private var entries: [String: Entry]
    private let endpoints: [String]

    init(endpoints: [String]) {
        self.endpoints = endpoints
        entries = Dictionary(uniqueKeysWithValues: endpoints.map { ($0, Entry()) })
    }

    mutating func record(_ event: SocketEvent, now: Duration) {
        guard entries[event.endpoint] != nil else { return }
        switch event.kind {
        case .handshakeSucceeded:
            entries[event.endpoint]!.connectedAt = now
            entries[event.endpoint]!.handshakeFailed = false
        case .disconnected:
            if entries[event.endpoint]!.connectedAt != nil { entries[event.endpoint]!.lostAt = now }
            entries[event.endpoint]!.connectedAt = nil
        case .connectRetried:
            entries[event.endpoint]!.failedAttempts += 1
        case let kind where !kind.isDisjoint(with: .handshakeFailed):
            entries[event.endpoint]!.handshakeFailed = true
        default:
            break
        }
    }

    /// Every endpoint's state at `now`, in the order they were given.
    func connections(now: Duration) -> [BrokerConnection] {
        endpoints.map { endpoint in
            let entry = entries[endpoint]!
            let status: BrokerConnection.Status =
                if let since = entry.connectedAt {
                    .connected(for: now - since)
                } else if entry.handshakeFailed {
                    .handshakeFailed
                } else if let lost = entry.lostAt {
                    .lost(ago: now - lost)
                } else {
                    .neverConnected(attempts: entry.failedAttempts)
                }
            return BrokerConnection(endpoint: endpoint, status: status)
        }
    }
}
