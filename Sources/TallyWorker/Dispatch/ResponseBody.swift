import Foundation
import Logging
import TallyJSONCoding
import TallyProtocol

/// An encoded response, ready to be the body frame of an MDP reply.
package struct ResponseBody: Sendable, Hashable {
    package var bytes: [UInt8]
    /// The request's id, when it could be read (for logs).
    package var requestID: String?
    /// The method answered, when the request got far enough to name one (for metrics and logs).
    package var method: String?
    /// The error code answered, or `nil` for a result.
    package var errorCode: ErrorCode?
    /// Whether a method handler ran for this answer. Metrics count it so that drills can prove an expired
    /// request is answered `deadline_exceeded` without being computed.
    package var computed = false
    /// The request's trace context, when it carried a valid one (checked when the envelope was read): for the
    /// request's log line and spans.
    package var trace: TraceContext?
    /// When the method's handler started (params decoded, deadline checked), for a traced request only: where its
    /// dispatch span ends and its compute span starts.
    package var computeStartedAt: ContinuousClock.Instant?

    package init(bytes: [UInt8], requestID: String? = nil, method: String? = nil, errorCode: ErrorCode? = nil) {
        self.bytes = bytes
        self.requestID = requestID
        self.method = method
        self.errorCode = errorCode
    }

    /// The response carrying `result`; if encoding fails (a handler produced a value JSON cannot carry) the caller
    /// gets `internal` rather than silence.
    static func result<Result: Codable & Sendable>(_ result: Result, context: RequestContext) -> ResponseBody {
        let id = context.head.id
        let envelope = ResponseEnvelope(id: id, outcome: .success(result))
        do {
            let bytes = try TallyJSON.resultEncoder().encodeToBytes(envelope)
            return ResponseBody(bytes: bytes, requestID: id, method: context.head.method)
        } catch {
            context.logger.error("response could not be encoded", metadata: ["error": "\(error)"])
            return failure(
                id: id, TallyError(.internal, "the response could not be encoded"), method: context.head.method)
        }
    }

    /// An error response.
    package static func failure(id: String?, _ error: TallyError, method: String? = nil) -> ResponseBody {
        ResponseBody(bytes: ErrorResponse.encode(id: id, error), requestID: id, method: method, errorCode: error.code)
    }
}
