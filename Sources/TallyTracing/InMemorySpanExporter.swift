import Synchronization

/// Keeps ended spans in memory: for tests, and for looking at what a process would export.
public final class InMemorySpanExporter: SpanExporter {
    private let spans = Mutex<[FinishedSpan]>([])

    public init() {}

    public func export(_ span: FinishedSpan) { spans.withLock { $0.append(span) } }

    public func shutdown() async {}

    /// Every span ended so far, in the order they ended.
    public var finishedSpans: [FinishedSpan] { spans.withLock { $0 } }
}
