import Synchronization
import Tracing

/// A span of `TallyTracer`: its identity is fixed at start, the rest (name, attributes, status, events) may change
/// from any thread until `end`, which hands it to the exporter once. A span the trace does not sample records
/// nothing and exports nothing, but still carries its identity, so that it is passed on.
package final class TallySpan: Span {
    package let context: ServiceContext
    package let isRecording: Bool
    let kind: SpanKind
    let parentSpanID: String?
    let startNanosecondsSinceEpoch: UInt64
    let exporter: any SpanExporter

    private struct State {
        var operationName: String
        var attributes: SpanAttributes = [:]
        var status: SpanStatus?
        var events: [SpanEvent] = []
        var ended = false
    }
    private let state: Mutex<State>

    init(
        operationName: String, context: ServiceContext, kind: SpanKind, parentSpanID: String?,
        startNanosecondsSinceEpoch: UInt64, isRecording: Bool, exporter: any SpanExporter
    ) {
        self.context = context
        self.kind = kind
        self.parentSpanID = parentSpanID
        self.startNanosecondsSinceEpoch = startNanosecondsSinceEpoch
        self.isRecording = isRecording
        self.exporter = exporter
        self.state = Mutex(State(operationName: operationName))
    }

    package var operationName: String {
        get { state.withLock { $0.operationName } }
        set { state.withLock { $0.operationName = newValue } }
    }

    package var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set {
            guard isRecording else { return }
            state.withLock { $0.attributes = newValue }
        }
    }

    package func setStatus(_ status: SpanStatus) {
        guard isRecording else { return }
        state.withLock { $0.status = status }
    }

    package func addEvent(_ event: SpanEvent) {
        guard isRecording else { return }
        state.withLock { $0.events.append(event) }
    }

    /// An `exception` event, as OpenTelemetry names it.
    package func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        guard isRecording else { return }
        var eventAttributes = attributes
        eventAttributes["exception.type"] = "\(type(of: error))"
        eventAttributes["exception.message"] = "\(error)"
        addEvent(SpanEvent(name: "exception", at: instant(), attributes: eventAttributes))
    }

    /// Links are not exported by this tracer.
    package func addLink(_ link: SpanLink) {}

    package func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let finished: State? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            return state
        }
        guard let finished, isRecording, let identity = context.w3cSpanContext else { return }
        exporter.export(
            FinishedSpan(
                operationName: finished.operationName, kind: kind, context: identity, parentSpanID: parentSpanID,
                startNanosecondsSinceEpoch: startNanosecondsSinceEpoch,
                endNanosecondsSinceEpoch: max(startNanosecondsSinceEpoch, instant().nanosecondsSinceEpoch),
                attributes: finished.attributes, status: finished.status, events: finished.events))
    }
}
