import ZeroMQ

/// A request as a worker's handler sees it.
package struct WorkerRequest: Sendable, Hashable {
    /// The service it came through.
    package var service: String
    /// The request body frames.
    package var body: [Frame]
    /// Which of the process's MDP connections carries it (0-based).
    package var connection: Int

    package init(service: String, body: [Frame], connection: Int) {
        self.service = service
        self.body = body
        self.connection = connection
    }
}
