import ZeroMQ

/// A request as a worker's handler sees it.
public struct WorkerRequest: Sendable, Hashable {
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
