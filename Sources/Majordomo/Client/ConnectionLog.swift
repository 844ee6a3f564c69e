import ZeroMQ

/// The connection events of a client's broker sockets, one entry per broker (`BrokerConnection`): what a timeout
/// says about each endpoint, and when a broker's connection comes up or goes.
struct ConnectionLog {
    private struct Entry {
        let endpoint: String
        var connectedAt: Duration?
        var lostAt: Duration?
        var failedAttempts = 0
        var handshakeFailed = false
        var losses = 0
    }

    /// What an event changed about its broker.
    enum Change: Equatable {
        /// The connection is up: the handshake is done.
        case up
        /// The connection that was up is gone, and with it whatever it carried.
        case down
    }

    private var entries: [Entry]

    init(endpoints: [String]) {
        entries = endpoints.map { Entry(endpoint: $0) }
    }

    /// Records an event of broker `broker`'s socket; returns whether the broker came up or went down.
    mutating func record(_ event: SocketEvent, broker: Int, now: Duration) -> Change? {
        switch event.kind {
        case .handshakeSucceeded:
            let wasUp = entries[broker].connectedAt != nil
            entries[broker].connectedAt = now
            entries[broker].handshakeFailed = false
            return wasUp ? nil : .up
        case .disconnected:
            guard entries[broker].connectedAt != nil else { return nil }
            entries[broker].connectedAt = nil
            entries[broker].lostAt = now
            entries[broker].losses += 1
            return .down
        case .connectRetried:
            entries[broker].failedAttempts += 1
        case let kind where !kind.isDisjoint(with: .handshakeFailed):
            entries[broker].handshakeFailed = true
        default:
            break
        }
        return nil
    }

    /// Every broker's state at `now`, in the order they were given.
    func connections(now: Duration) -> [BrokerConnection] {
        entries.map { entry in
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
            return BrokerConnection(endpoint: entry.endpoint, status: status, losses: entry.losses)
        }
    }
}
