import Tracing

/// A span that ended, as exporters see it: plain values, no locks.
public struct FinishedSpan: Sendable {
    public var operationName: String
    public var kind: SpanKind
    public var context: W3CSpanContext
    /// The parent span's id, `nil` for a root span.
    public var parentSpanID: String?
    public var startNanosecondsSinceEpoch: UInt64
    public var endNanosecondsSinceEpoch: UInt64
    public var attributes: SpanAttributes
    public var status: SpanStatus?
    public var events: [SpanEvent]
}

/// Where ended spans go. `export` is called on the thread that ended the span (a broker's or worker's I/O
/// thread), so it must only hand the span over, never block.
public protocol SpanExporter: Sendable {
    func export(_ span: FinishedSpan)
    /// Sends what is pending (within the exporter's own time bound); spans ended afterwards may be dropped.
    func shutdown() async
}
