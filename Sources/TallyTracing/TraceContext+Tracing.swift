import TallyProtocol
import Tracing

extension Tracer {
    /// A context whose current span is the caller's that `trace` names: spans started from it are children of the
    /// request's `traceparent`, and keep its `tracestate`. Extracted by the tracer's own propagation (W3C for
    /// `TallyTracer` and swift-otel's default), so any such tracer can record Tally's spans.
    package func context(continuing trace: TraceContext) -> ServiceContext {
        var context = ServiceContext.topLevel
        extract(trace, into: &context, using: TraceContextExtractor())
        return context
    }
}

/// Reads the envelope's `trace` as the two W3C headers it holds.
package struct TraceContextExtractor: Extractor {
    package init() {}

    package func extract(key: String, from carrier: TraceContext) -> String? {
        switch key.lowercased() {
        case "traceparent": carrier.traceparent
        case "tracestate": carrier.tracestate
        default: nil
        }
    }
}

extension TracerInstant where Self == DefaultTracerClock.Timestamp {
    /// The wall-clock instant `elapsed` before `instant`: spans measured on a monotonic clock are placed in time
    /// from the moment they are recorded.
    package static func instant(_ elapsed: Duration, before instant: DefaultTracerClock.Timestamp) -> Self {
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        let back = UInt64(max(0, min(nanoseconds, Int64(instant.nanosecondsSinceEpoch))))
        return DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: instant.nanosecondsSinceEpoch - back)
    }
}
