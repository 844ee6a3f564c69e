import Logging

/// The W3C trace a request belongs to, as the application reads it from the body
/// (`ApplicationEnvelope.trace(ofRequest:)`): what the broker's log lines and spans about that request carry.
///
/// The broker only carries it; reading and checking it is the application's business, as the body is.
public struct RequestTrace: Sendable, Hashable {
    /// The request's `traceparent`, valid by W3C Trace Context: `00-<trace-id>-<parent-id>-<flags>`.
    public var traceparent: String
    /// Its `tracestate`, if any.
    public var tracestate: String?
    /// 32 lowercase hex digits: the whole trace.
    public var traceID: String
    /// 16 lowercase hex digits: the caller's span, the one the request belongs to.
    public var parentID: String

    public init(traceparent: String, tracestate: String?, traceID: String, parentID: String) {
        self.traceparent = traceparent
        self.tracestate = tracestate
        self.traceID = traceID
        self.parentID = parentID
    }

    /// `trace_id` and `span_id`, as every Tally log line about a traced request has them.
    public var logMetadata: Logger.Metadata {
        ["trace_id": "\(traceID)", "span_id": "\(parentID)"]
    }
}
