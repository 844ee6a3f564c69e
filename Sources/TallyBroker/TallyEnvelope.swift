import Majordomo
import TallyProtocol
import ZeroMQ

/// What the broker knows of Tally's v1 envelope.
///
/// - Its own answers are v1 error responses that echo the request's id, so a client matches them to its request
///   and handles them like any other error: `overloaded` for a full queue, `unavailable` when no worker answered,
///   `payload_too_large` for an oversized body, `internal` for a request that kills its workers.
/// - A reply is tied to its request by the top-level `id` (read by `EnvelopeScanner`, without parsing the
///   document): a worker that answers one request with another's response is refused. A Tally worker echoes the
///   id it read byte for byte, or answers with a `null` id when it could not read one; only two ids that were both
///   read are compared.
/// - The request's W3C `trace` is read, within the body's first 4 KiB, for the log lines about requests that go
///   wrong or move (and for every delivered request when `tracesEveryRequest`): a scan, never a parse.
package struct TallyEnvelope: ApplicationEnvelope {
    /// Suggested client back-off for `overloaded` and shutdown answers.
    package var retryAfter: Duration
    /// Whether each delivered reply's event comes with its request's trace: for per-request log lines (`trace`
    /// level) and broker spans. Off, a delivery costs no scan.
    package var tracesEveryRequest: Bool

    package init(retryAfter: Duration = .seconds(1), tracesEveryRequest: Bool = false) {
        self.retryAfter = retryAfter
        self.tracesEveryRequest = tracesEveryRequest
    }

    package func failureReply(for failure: BrokerFailure, service: String, requestBody: [Frame]) -> [Frame] {
        let id = requestBody.first.flatMap { frame in frame.withUnsafeBytes { EnvelopeScanner.id(in: $0) } }
        return [Frame(ErrorResponse.encode(id: id, error(for: failure, service: service)))]
    }

    /// The `id` of a one-frame v1 body, as its raw bytes: a slice of the frame (no copy), or of a copy of the id
    /// alone when a large frame is still in its libzmq message (`Frame.bytes(in:)`).
    package func correlationKey(of body: [Frame]) -> ArraySlice<UInt8>? {
        guard body.count == 1 else { return nil }
        return body[0].withUnsafeBytes { EnvelopeScanner.rawIDRange(in: $0) }.map { body[0].bytes(in: $0) }
    }

    /// The `id` and, for an error response, `error.code` of a one-frame v1 reply, in one scan of its head.
    package func replyHead(of body: [Frame]) -> ReplyHead {
        guard body.count == 1 else { return ReplyHead() }
        let head = body[0].withUnsafeBytes {
            EnvelopeScanner.replyHeadRanges(in: $0, maxCodeBytes: ReplyHead.maximumCodeLength)
        }
        return ReplyHead(
            correlationKey: head.id.map { body[0].bytes(in: $0) },
            errorCode: head.errorCode.map { body[0].bytes(in: $0) })
    }

    /// The `trace` of a one-frame v1 body when it is valid by W3C Trace Context (the worker refuses the request
    /// otherwise, and its lines name no trace either).
    package func trace(ofRequest body: [Frame]) -> RequestTrace? {
        guard body.count == 1, let context = body[0].withUnsafeBytes({ EnvelopeScanner.trace(in: $0) }),
            let parent = try? context.validated()
        else { return nil }
        return RequestTrace(
            traceparent: context.traceparent, tracestate: context.tracestate, traceID: parent.traceID,
            parentID: parent.parentID)
    }

    /// `id=… method=…` of a v1 request, or its size when it is not one.
    package func summary(ofRequest body: [Frame]) -> String {
        let size = "\(body.reduce(0) { $0 + $1.count }) bytes"
        guard body.count == 1 else { return size }
        let (id, method) = body[0].withUnsafeBytes { (EnvelopeScanner.id(in: $0), EnvelopeScanner.method(in: $0)) }
        guard id != nil || method != nil else { return size }
        return "id=\(id ?? "-") method=\(method ?? "-")"
    }

    /// The broker's answer to `failure`, with ``code(for:)``'s code: it names the service, and says after how long
    /// to retry where retrying could help.
    func error(for failure: BrokerFailure, service: String) -> TallyError {
        var details = ErrorDetails(service: service)
        let message: String
        switch failure {
        case .overloaded(let limit):
            message = "\(service) has \(limit) requests waiting; retry later"
            details.limit = limit
            details.retryAfterMilliseconds = Self.milliseconds(retryAfter)
        case .noWorker(let waited):
            message = "no \(service) worker took the request within \(Self.milliseconds(waited)) ms"
        case .notServed:
            message = "no \(service) worker is registered with this broker"
            details.retryAfterMilliseconds = Self.milliseconds(retryAfter)
        case .workersLost(let attempts):
            message = "the request lost its \(service) worker \(attempts) time(s); giving up"
        case .workerTimedOut(let held):
            message = "the \(service) worker did not answer within \(Self.milliseconds(held)) ms"
        case .shuttingDown:
            message = "the broker is shutting down"
            details.retryAfterMilliseconds = Self.milliseconds(retryAfter)
        case .tooManyServices(let limit):
            message =
                "\(limit) services without a worker already have requests waiting at this broker (names only clients "
                + "have used); \(service) is not one of them"
            details.limit = limit
        case .workerDied(let workersLost):
            message =
                "the request was not answered: \(workersLost) \(service) workers died while computing it, the last with nothing else to do; it is not retried"
        case .payloadTooLarge(let bytes, let limit):
            message = "the body has \(bytes) bytes; the limit is \(limit)"
            details.field = "body"
            details.problem = "more than \(limit) bytes"
            details.limit = limit
        }
        return TallyError(Self.code(for: failure), message, details: details)
    }

    /// The v1 code of the broker's answer to `failure`, without wording the answer: what `error(for:service:)`
    /// says, for counting answers by code (the console) where a message would be built for nothing.
    package static func code(for failure: BrokerFailure) -> ErrorCode {
        switch failure {
        case .overloaded: .overloaded
        case .payloadTooLarge: .payloadTooLarge
        case .workerDied: .internal
        case .noWorker, .notServed, .workersLost, .workerTimedOut, .shuttingDown, .tooManyServices: .unavailable
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
