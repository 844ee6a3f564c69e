/// How a client's connection to one broker stands, from its socket's connection events: what a timeout says
/// about each endpoint, so that "no reply" tells a broker that was never reached from one that went quiet.
package struct BrokerConnection: Sendable, Hashable, CustomStringConvertible {
    package enum Status: Sendable, Hashable {
        /// Connected and the ZMTP handshake done, `for` so long.
        case connected(for: Duration)
        /// Never connected: every attempt so far failed (nothing listens there, the host is unreachable or the name
        /// does not resolve).
        case neverConnected(attempts: Int)
        /// Connected once; the connection went `ago` so long, and has not come back since.
        case lost(ago: Duration)
        /// The transport connected but the handshake failed (a CURVE key mismatch or a refused key, a peer that is
        /// not ZeroMQ).
        case handshakeFailed
    }

    package let endpoint: String
    package let status: Status
    /// How many times a connection to this broker that was up has been lost (closed by the broker, reset, or
    /// dropped because the broker stopped answering heartbeats).
    package let losses: Int

    package init(endpoint: String, status: Status, losses: Int = 0) {
        self.endpoint = endpoint
        self.status = status
        self.losses = losses
    }

    package var description: String {
        switch status {
        case .connected(let time): "\(endpoint): connected for \(Self.seconds(time))"
        case .neverConnected(let attempts) where attempts == 0: "\(endpoint): not connected yet"
        case .neverConnected(let attempts):
            "\(endpoint): never reached (\(attempts) attempts: nothing listens there, or the host is unreachable)"
        case .lost(let ago): "\(endpoint): connection lost \(Self.seconds(ago)) ago"
        case .handshakeFailed: "\(endpoint): reached, but the handshake failed (CURVE keys?)"
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let tenths = duration / .milliseconds(100)
        return "\(Int(tenths) / 10).\(Int(tenths) % 10) s"
    }
}
