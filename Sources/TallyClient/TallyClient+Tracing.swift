import TallyProtocol
import Tracing

/// Trace context for calls: each `call` is a client span of the tracer the process bootstrapped
/// (`InstrumentationSystem.tracer`, e.g. swift-otel's), a child of the caller's current span (a Hummingbird
/// request's, say), and the request carries that span as its `trace`, so the broker's and worker's lines and spans
/// continue the caller's trace.
///
/// With no tracer bootstrapped (swift-distributed-tracing's no-op default) the span costs next to nothing and the
/// request carries no `trace` unless the caller gave one.
extension TallyClient {
    /// The trace a call sends: the one the caller gave, else the span's, when its tracer writes a valid W3C
    /// `traceparent` (a tracer that propagates another format sends none).
    static func trace(for span: some Span, explicit: TraceContext?) -> TraceContext? {
        if let explicit { return explicit }
        var carrier = TraceHeaders()
        InstrumentationSystem.tracer.inject(span.context, into: &carrier, using: TraceHeaders.Injector())
        guard let traceparent = carrier.traceparent else { return nil }
        let context = TraceContext(traceparent: traceparent, tracestate: carrier.tracestate)
        return (try? context.validated()) == nil ? nil : context
    }

    /// OpenTelemetry's RPC conventions: `rpc.system`, `rpc.service`, `rpc.method`.
    static func describe(_ span: some Span, service: String, method: String) {
        guard span.isRecording else { return }
        span.updateAttributes { attributes in
            attributes["rpc.system"] = "tally"
            attributes["rpc.service"] = service
            attributes["rpc.method"] = method
        }
    }

    /// Marks a failed call's span, with Tally's error code.
    static func record(_ error: TallyClientError, on span: some Span) {
        guard span.isRecording else { return }
        span.attributes["tally.error.code"] = error.code.rawValue
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error, message: error.code.rawValue))
    }
}

/// The two W3C headers a tracer injects, as the envelope's `trace` carries them.
struct TraceHeaders: Sendable {
    var traceparent: String?
    var tracestate: String?

    struct Injector: Tracing.Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout TraceHeaders) {
            switch key.lowercased() {
            case "traceparent": carrier.traceparent = value
            case "tracestate": carrier.tracestate = value
            default: break
            }
        }
    }
}
