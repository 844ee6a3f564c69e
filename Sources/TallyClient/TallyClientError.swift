import TallyProtocol

/// Why a Tally call has no result: Tally's answer (a worker's or a broker's error response), or what this client
/// saw instead (no answer in time, the client not running, the call cancelled).
///
/// `code` is an open set, as the protocol's codes are: switch on the codes you handle and treat any other like
/// `internal`. Local failures use codes of their own (`timeout`, `client_not_running`, `client_stopped`,
/// `cancelled`, `invalid_response`, `encoding_failed`, `duplicate_request_id`, `invalid_configuration`), never a
/// server's.
public struct TallyClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One attempt of a call that was retried, and how it ended.
    public struct Attempt: Hashable, Sendable, CustomStringConvertible {
        /// The attempt's error code (the server's, or `timeout`).
        public var code: ErrorCode
        /// The attempt's message.
        public var message: String
        /// How long the attempt took.
        public var duration: Duration

        /// `overloaded after 6 ms: …` for Tally's answers, `timeout after 334 ms` for the client's own (whose
        /// message the error itself already says).
        public var description: String {
            let head = "\(code) after \(TallyClientError.readable(duration))"
            return code == .timeout ? head : "\(head): \(message)"
        }
    }

    /// The error's code: the server's (`invalid_params`, `overloaded`, …) or the client's own (`timeout`, …). An
    /// open set: treat a code you do not know as `internal`.
    public var code: ErrorCode
    /// What went wrong, for people: the server's message, or the client's own account (naming each broker and what
    /// is known of its connection on a timeout).
    public var message: String
    /// The server's details (`field`, `problem`, `limit`, `retry_after_ms`…), when Tally answered.
    public var details: ErrorDetails?
    /// Whether this is Tally's answer (a worker's or the broker's) rather than the client's own conclusion.
    public var isFromServer: Bool
    /// Every attempt of the call, oldest first, when it was retried (empty for a single attempt).
    public var attempts: [Attempt] = []
    /// How each broker's connection stood, for a call that got no answer.
    public var brokers: [BrokerConnectionState] = []

    /// Tally's answer.
    public init(server error: TallyError) {
        code = error.code
        message = error.message
        details = error.details
        isFromServer = true
    }

    /// The client's own conclusion.
    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
        isFromServer = false
    }

    /// Tally's answer as a protocol error, or `nil` for a local failure.
    public var server: TallyError? { isFromServer ? TallyError(code, message, details: details) : nil }

    public var description: String {
        var text = "\(code): \(message)"
        if attempts.count > 1 {
            text += " (\(attempts.count) attempts: \(attempts.map(\.description).joined(separator: "; ")))"
        }
        return text
    }

    // MARK: Local failures

    /// No answer within the call's timeout, retries included.
    static func timeout(_ timeout: Duration, brokers: [BrokerConnectionState]) -> Self {
        var error = Self(.timeout, "no answer within \(readable(timeout))" + Self.describe(brokers))
        error.brokers = brokers
        return error
    }

    /// The call waited its whole budget for a client that never started.
    static func notStarted(within budget: Duration) -> Self {
        Self(
            .clientNotRunning,
            "the client did not start within \(readable(budget)): call it inside withTallyClient or while run() runs")
    }
    static let stopped = Self(.clientStopped, "the client has stopped")
    static let cancelled = Self(.cancelled, "the call was cancelled")

    static func invalidResponse(_ reason: String) -> Self { Self(.invalidResponse, "invalid response: \(reason)") }
    static func encodingFailed(_ reason: String) -> Self {
        Self(.encodingFailed, "params could not be encoded: \(reason)")
    }
    static func duplicateID(_ id: String) -> Self {
        Self(.duplicateRequestID, "request id '\(id)' is already in flight on this client")
    }

    /// `334 ms`, `1.5 s`: durations as people read them in messages.
    static func readable(_ duration: Duration) -> String {
        let milliseconds = Int((duration / .milliseconds(1)).rounded())
        guard milliseconds >= 1000 else { return "\(milliseconds) ms" }
        let tenths = (milliseconds + 50) / 100
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }

    private static func describe(_ brokers: [BrokerConnectionState]) -> String {
        brokers.isEmpty ? "" : " (\(brokers.map(\.status).joined(separator: "; ")))"
    }
}

extension ErrorCode {
    /// A call made before the client runs.
    public static let clientNotRunning = Self(rawValue: "client_not_running")
    /// A call made after the client stopped, or still waiting when it did.
    public static let clientStopped = Self(rawValue: "client_stopped")
    /// The calling task was cancelled.
    public static let cancelled = Self(rawValue: "cancelled")
    /// The reply is not a v1 response for the method.
    public static let invalidResponse = Self(rawValue: "invalid_response")
    /// The params could not be encoded.
    public static let encodingFailed = Self(rawValue: "encoding_failed")
    /// A raw body's request id is already in flight on this client: its reply could not be told apart.
    public static let duplicateRequestID = Self(rawValue: "duplicate_request_id")
    /// The client's configuration cannot work (an endpoint that is not a ZeroMQ endpoint, an unreadable key).
    public static let invalidConfiguration = Self(rawValue: "invalid_configuration")
}
