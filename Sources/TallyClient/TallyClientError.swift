import TallyProtocol

/// Why a Tally call has no result.
public enum TallyClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Tally answered with an error (from a worker or the broker).
    case server(TallyError)
    /// No answer within the call's timeout, retries included.
    case timeout(Duration)
    /// The calling task was cancelled.
    case cancelled
    /// The client was stopped, or not started.
    case stopped
    /// The reply is not a v1 response for this method.
    case invalidResponse(String)
    /// The params could not be encoded.
    case invalidParams(String)

    /// A stable code for every case: the server's code, or `timeout`/`internal` for local failures.
    public var code: ErrorCode {
        switch self {
        case .server(let error): error.code
        case .timeout: .timeout
        case .cancelled, .stopped: .unavailable
        case .invalidResponse, .invalidParams: .internal
        }
    }

    public var description: String {
        switch self {
        case .server(let error): error.description
        case .timeout(let duration): "timeout: no answer within \(duration)"
        case .cancelled: "cancelled"
        case .stopped: "the client is stopped"
        case .invalidResponse(let reason): "invalid response: \(reason)"
        case .invalidParams(let reason): "params could not be encoded: \(reason)"
        }
    }
}
