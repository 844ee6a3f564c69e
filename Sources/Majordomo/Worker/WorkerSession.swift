import ZeroMQ

/// The protocol state of one MDP worker connection, without its socket: when to heartbeat, when the broker is
/// considered gone, when to reconnect. The worker's loop owns one per connection.
struct WorkerSession: Sendable {
    /// What the loop must do for this connection.
    enum Step: Sendable, Equatable {
        case sendHeartbeat
        /// The broker is silent or told us to go: close the socket and reconnect after the delay.
        case dropConnection(reason: String)
        /// Open a new socket, connect and send READY.
        case connect
    }

    let index: Int
    let service: String
    let broker: String
    /// Requests the connection takes at once (offered in READY).
    let credit: Int
    private let configuration: WorkerConfiguration
    /// Increments with every new socket, so that a reply computed for an old connection is never sent on a new
    /// one (the broker already re-queued that request).
    private(set) var generation = 0
    /// Requests received on the current socket and not yet answered.
    var inFlight = 0
    /// Whether the broker has sent anything on the current socket (proof that it knows us).
    private(set) var hasHeardFromBroker = false
    /// Whether the broker has sent anything but DISCONNECT on the current socket: it accepted our READY.
    private(set) var brokerAcceptedReady = false
    /// Whether the next READY carries Tally's capabilities frame. It does, unless the last connection sent one and
    /// the broker refused it (a strict MDP/0.1 broker answers DISCONNECT to a READY it cannot read, or to the
    /// heartbeats of a worker it did not register): then one plain READY, and the capabilities again on the
    /// connection after. A connection that heard nothing at all is no evidence: the broker was down, stalled or
    /// out of reach, and a plain READY would make each connection of this process a process of its own to it
    /// (its credit 1, its losses counted apart) once it is back.
    private(set) var offersCapabilities = true
    private var brokerExpiresAt: Duration = .zero
    private var nextHeartbeatAt: Duration = .zero
    /// When disconnected: when to reconnect.
    private(set) var reconnectAt: Duration?

    init(index: Int, service: String, broker: String, credit: Int, configuration: WorkerConfiguration) {
        self.index = index
        self.service = service
        self.broker = broker
        self.credit = credit
        self.configuration = configuration
        self.brokerPatience = configuration.heartbeatInterval * configuration.heartbeatLiveness
        self.reconnectAt = .zero
    }

    /// Every connection `configuration` asks for, indexed from 0: per broker, per service, `connectionsPerService`
    /// each (consecutive indexes, so that dealing them out round-robin gives every thread every service).
    static func all(for configuration: WorkerConfiguration) -> [WorkerSession] {
        var sessions: [WorkerSession] = []
        for broker in configuration.brokers {
            for service in configuration.services {
                for number in 0..<configuration.connectionsPerService {
                    sessions.append(
                        WorkerSession(
                            index: sessions.count, service: service, broker: broker,
                            credit: configuration.credit(ofConnection: number), configuration: configuration))
                }
            }
        }
        return sessions
    }

    var isConnected: Bool { reconnectAt == nil }

    /// How long the broker may be silent before the connection is taken for lost.
    /// Computed once: a `Duration` times an `Int` goes through 128-bit arithmetic, and every message from the broker
    /// renews the deadline.
    let brokerPatience: Duration

    /// A new socket was connected and READY sent.
    mutating func connected(now: Duration) {
        generation += 1
        inFlight = 0
        hasHeardFromBroker = false
        brokerAcceptedReady = false
        reconnectAt = nil
        brokerExpiresAt = now + brokerPatience
        nextHeartbeatAt = now + configuration.heartbeatInterval
    }

    /// Anything from the broker proves it alive; anything but DISCONNECT proves it took our READY.
    mutating func heardFromBroker(now: Duration, disconnect: Bool = false) {
        hasHeardFromBroker = true
        if !disconnect { brokerAcceptedReady = true }
        brokerExpiresAt = now + brokerPatience
    }

    /// The socket was closed; reconnect after the configured delay.
    mutating func disconnected(now: Duration) {
        if reconnectAt == nil {
            let refused = hasHeardFromBroker && !brokerAcceptedReady
            offersCapabilities = !offersCapabilities || !refused
        }
        reconnectAt = now + configuration.reconnectDelay
        inFlight = 0
        hasHeardFromBroker = false
        brokerAcceptedReady = false
    }

    /// What is due at `now`.
    mutating func due(now: Duration) -> Step? {
        if let reconnectAt { return now >= reconnectAt ? .connect : nil }
        if now >= brokerExpiresAt {
            return .dropConnection(
                reason: "broker silent for \(brokerPatience)")
        }
        if now >= nextHeartbeatAt {
            nextHeartbeatAt = now + configuration.heartbeatInterval
            return .sendHeartbeat
        }
        return nil
    }

    /// When `due` next has something.
    var nextTimer: Duration {
        reconnectAt ?? min(brokerExpiresAt, nextHeartbeatAt)
    }
}
