import Majordomo

/// How one broker's connection stands, as `TallyClient.brokerConnections()` and a timeout's error report it.
public struct BrokerConnectionState: Hashable, Sendable, CustomStringConvertible {
    /// The endpoint as configured.
    public var endpoint: String
    /// Whether the connection is up (the handshake done, heartbeats answered): calls go to this broker.
    public var isConnected: Bool
    /// How many times a connection to this broker that was up has been lost (closed, or the broker went silent).
    public var losses: Int
    /// Connected, never reached, lost, or refused at the handshake, in words.
    public var status: String

    public var description: String { status }

    init(_ connection: BrokerConnection) {
        endpoint = connection.endpoint
        if case .connected = connection.status { isConnected = true } else { isConnected = false }
        losses = connection.losses
        status = connection.losses > 0 ? "\(connection) (lost \(connection.losses)×)" : "\(connection)"
    }
}
