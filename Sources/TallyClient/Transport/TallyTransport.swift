/// What carries a `TallyClient`'s requests: the seam between the client's own logic (ids, deadlines, retries,
/// decoding, errors) and the wire.
///
/// The client over MDP/0.1 (`MajordomoTransport`) is one; `FakeTally` (the `TallyClientTesting` product) is another,
/// in process, so that a backend's tests run the real client against handlers of their own; `TallyClientTests` uses
/// scripted ones. An attempt is one request and its one reply: retries are the client's, not the transport's.
package protocol TallyTransport: Sendable {
    /// Starts carrying requests (connects, in the background). Starting twice does nothing.
    func start() throws(TallyClientError)

    /// Stops for good: attempts still waiting fail with `.stopped`.
    func stop() async

    /// Tells the transport to stop without waiting (for a `deinit`).
    func requestStop()

    /// Sends `body` to `service` and waits at most `timeout` for the reply that carries `key` (the request's id;
    /// `nil` to take replies in order).
    /// - Returns: the reply's body.
    func attempt(
        service: String, body: [UInt8], key: String?, timeout: Duration
    ) async throws(TransportFailure) -> [UInt8]

    /// How each broker's connection stands, for health checks and timeout errors.
    func connections() async -> [BrokerConnectionState]

    /// The thread the transport's I/O runs on, as a task executor, when it has one.
    var executor: (any TaskExecutor)? { get }
}

/// Why an attempt got no reply.
package enum TransportFailure: Error, Sendable, Hashable {
    /// No reply within the attempt's timeout, with how each broker's connection stood.
    case timeout(brokers: [BrokerConnectionState])
    /// The calling task was cancelled.
    case cancelled
    /// The transport stopped before the reply came, or before the attempt was made.
    case stopped
    /// Another attempt with the same key is in flight.
    case duplicateKey(String)
}
