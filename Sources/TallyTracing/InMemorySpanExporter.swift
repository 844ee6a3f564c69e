import Synchronization

/// Keeps ended spans in memory: for tests, and for looking at what a process would export.
package final class InMemorySpanExporter: SpanExporter {
    private let spans = Mutex<[FinishedSpan]>([])

    package init() {}

    package func export(_ span: FinishedSpan) { spans.withLock { $0.append(span) } }

    package func shutdown() async {}

    /// Every span ended so far, in the order they ended.
    package var finishedSpans: [FinishedSpan] { spans.withLock { $0 } }
}
