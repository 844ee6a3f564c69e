import Tracing

/// A span that ended, as exporters see it: plain values, no locks.
package struct FinishedSpan: Sendable {
    package var operationName: String
    package var kind: SpanKind
    package var context: W3CSpanContext
    /// The parent span's id, `nil` for a root span.
    package var parentSpanID: String?
    package var startNanosecondsSinceEpoch: UInt64
    package var endNanosecondsSinceEpoch: UInt64
    package var attributes: SpanAttributes
    package var status: SpanStatus?
    package var events: [SpanEvent]
}

/// Where ended spans go. `export` is called on the thread that ended the span (a broker's or worker's I/O
/// thread), so it must only hand the span over, never block.
package protocol SpanExporter: Sendable {
    func export(_ span: FinishedSpan)
    /// Sends what is pending (within the exporter's own time bound); spans ended afterwards may be dropped.
    func shutdown() async
}
