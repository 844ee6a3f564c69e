import Majordomo
import TallyProtocol
import ZeroMQ

/// Words the broker's own answers as Tally v1 error responses that echo the request's id, so a client matches
/// them to its request and handles them like any other error: `overloaded` for a full queue, `unavailable` when
/// no worker answered, `payload_too_large` for an oversized body.
public struct TallyFailureReplies: FailureReplyEncoding {
    /// Suggested client back-off for `overloaded` and shutdown answers.
    public var retryAfter: Duration

    public init(retryAfter: Duration = .seconds(1)) {
        self.retryAfter = retryAfter
    }

    public func replyBody(for failure: BrokerFailure, service: String, requestBody: [Frame]) -> [Frame] {
        let id = requestBody.first.flatMap { EnvelopeScanner.id(in: $0.bytes) }
        return [Frame(ErrorResponse.encode(id: id, error(for: failure, service: service)))]
    }

    func error(for failure: BrokerFailure, service: String) -> TallyError {
        let retryMilliseconds = Self.milliseconds(retryAfter)
        switch failure {
        case .overloaded(let limit):
            return TallyError(
                .overloaded, "\(service) has \(limit) requests waiting; retry later",
                details: ErrorDetails(limit: limit, service: service, retryAfterMilliseconds: retryMilliseconds))
        case .noWorker(let waited):
            return TallyError(
                .unavailable, "no \(service) worker took the request within \(Self.milliseconds(waited)) ms",
                details: ErrorDetails(service: service))
        case .workersLost(let attempts):
            return TallyError(
                .unavailable, "the request lost its \(service) worker \(attempts) time(s); giving up",
                details: ErrorDetails(service: service))
        case .workerTimedOut(let held):
            return TallyError(
                .unavailable, "the \(service) worker did not answer within \(Self.milliseconds(held)) ms",
                details: ErrorDetails(service: service))
        case .shuttingDown:
            return TallyError(
                .unavailable, "the broker is shutting down",
                details: ErrorDetails(service: service, retryAfterMilliseconds: retryMilliseconds))
        case .tooManyServices(let limit):
            return TallyError(
                .unavailable, "the broker already tracks \(limit) services; \(service) is not one of them",
                details: ErrorDetails(limit: limit, service: service))
        case .payloadTooLarge(let bytes, let limit):
            return TallyError(
                .payloadTooLarge, "the body has \(bytes) bytes; the limit is \(limit)",
                details: ErrorDetails(
                    field: "body", problem: "more than \(limit) bytes", limit: limit, service: service))
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
