import ZeroMQ

/// Why the broker itself answers a request instead of a worker.
public enum BrokerFailure: Sendable, Hashable, CustomStringConvertible {
    /// The service's queue is full.
    case overloaded(limit: Int)
    /// No worker took the request before the queue timeout.
    case noWorker(waited: Duration)
    /// Every attempt lost its worker (died, expired or disconnected while holding the request).
    case workersLost(attempts: Int)
    /// The worker holding the request did not answer within the request timeout; it was disconnected.
    case workerTimedOut(held: Duration)
    /// The broker is shutting down and accepts no new work.
    case shuttingDown
    /// The broker already tracks its maximum number of services.
    case tooManyServices(limit: Int)
    /// The request body is larger than the broker accepts.
    case payloadTooLarge(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .overloaded(let limit): "the service's queue is full (\(limit) requests)"
        case .noWorker(let waited): "no worker took the request within \(waited)"
        case .workersLost(let attempts): "the request lost its worker \(attempts) time(s)"
        case .workerTimedOut(let held): "the worker did not answer within \(held)"
        case .shuttingDown: "the broker is shutting down"
        case .tooManyServices(let limit): "the broker already serves \(limit) services"
        case .payloadTooLarge(let bytes, let limit): "the request body has \(bytes) bytes; the limit is \(limit)"
        }
    }
}

/// Builds the body of the broker's own reply to a request it cannot deliver. The broker is domain-free: the
/// application (Tally) decides what such a reply looks like, e.g. a JSON error echoing the request's id.
public protocol FailureReplyEncoding: Sendable {
    /// - Parameters:
    ///   - failure: what went wrong.
    ///   - service: the service the request was for.
    ///   - requestBody: the request's body frames, to echo an id from.
    func replyBody(for failure: BrokerFailure, service: String, requestBody: [Frame]) -> [Frame]
}

/// Failure replies as one text frame `error: <reason>`, for deployments without an application encoder.
public struct PlainTextFailureReplies: FailureReplyEncoding {
    public init() {}

    public func replyBody(for failure: BrokerFailure, service: String, requestBody: [Frame]) -> [Frame] {
        [Frame("error: \(failure)")]
    }
}
