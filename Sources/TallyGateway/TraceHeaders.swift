import TallyJSONCoding
import TallyProtocol

/// The W3C Trace Context of an HTTP request (`traceparent`, `tracestate`), checked as the worker checks an
/// envelope's `trace`, so that one the worker would refuse is refused here with the same words, without a round
/// trip, and so that only checked text is written into an envelope.
struct TraceHeaders: Sendable, Hashable {
    let traceparent: String
    let tracestate: String?

    /// - Returns: `nil` without a `traceparent` (a `tracestate` alone means nothing, W3C §3.3).
    /// - Throws: `invalid_request` naming `trace.traceparent` or `trace.tracestate`, as the worker would.
    init?(traceparent: String?, tracestate: String?) throws(TallyError) {
        guard let traceparent else { return nil }
        let context = TraceContext(traceparent: traceparent, tracestate: tracestate)
        do {
            _ = try context.validated()
        } catch {
            throw .invalidRequest(FieldPath([.key("trace"), .key(error.member)]), error.problem)
        }
        self.traceparent = traceparent
        self.tracestate = tracestate
    }
}
