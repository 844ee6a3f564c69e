import ZeroMQ

/// Where a worker process connects, what it serves and how it keeps its connections alive.
public struct WorkerConfiguration: Sendable, Hashable {
    /// Broker endpoints; the worker registers with every one of them (no single point of failure).
    public var brokers: [String]
    /// MDP services to serve.
    public var services: [String]
    /// MDP connections per service per broker: how many requests of one service this process computes at once.
    public var concurrency: Int = 4
    /// I/O threads the connections are spread over; `nil` for one per processor core (never more threads than
    /// connections). With `RequestComputation.onIOThread` this is how many requests compute at once.
    public var ioThreads: Int?
    /// How often the worker sends HEARTBEAT.
    public var heartbeatInterval: Duration = .milliseconds(2500)
    /// Intervals of broker silence after which the worker reconnects.
    public var heartbeatLiveness: Int = 3
    /// Pause before reconnecting after the broker went silent or sent DISCONNECT.
    public var reconnectDelay: Duration = .seconds(1)

    public init(brokers: [String], services: [String]) {
        self.brokers = brokers
        self.services = services
    }
}

/// A request as a worker's handler sees it.
public struct WorkerRequest: Sendable {
    /// The service it came through.
    public var service: String
    /// The request body frames.
    public var body: [Frame]
    /// Which of the process's MDP connections carries it (0-based).
    public var connection: Int

    public init(service: String, body: [Frame], connection: Int) {
        self.service = service
        self.body = body
        self.connection = connection
    }
}
