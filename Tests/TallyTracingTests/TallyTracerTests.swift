import TallyProtocol
import TallyTracing
import Testing
import Tracing

/// `TallyTracer` continues a W3C trace: spans are children of the extracted `traceparent`, keep its `tracestate`,
/// record only what the caller samples, and are passed on as `traceparent` again.
@Suite struct TallyTracerTests {
    static let caller = TraceContext(
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracestate: "congo=t61rcWkgMzE")

    let spans = InMemorySpanExporter()
    var tracer: TallyTracer { TallyTracer(exporter: spans) }

    @Test func aSpanContinuesTheCallersTrace() throws {
        let context = tracer.context(continuing: Self.caller)
        let span = tracer.startSpan("work", context: context, ofKind: .server)
        span.attributes["rpc.method"] = "system.ping"
        span.end()
        let finished = try #require(spans.finishedSpans.first)
        #expect(finished.operationName == "work")
        #expect(finished.context.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(finished.parentSpanID == "00f067aa0ba902b7")
        #expect(finished.context.spanID != "00f067aa0ba902b7" && finished.context.spanID.count == 16)
        #expect(finished.context.traceState == "congo=t61rcWkgMzE")
        #expect(finished.attributes.get("rpc.method") == .string("system.ping"))
        #expect(finished.endNanosecondsSinceEpoch >= finished.startNanosecondsSinceEpoch)
    }

    @Test func aSpanIsPassedOnAsTraceparentAndTracestate() throws {
        let span = tracer.startSpan("call", context: tracer.context(continuing: Self.caller), ofKind: .client)
        var headers: [String: String] = [:]
        tracer.inject(span.context, into: &headers, using: DictionaryInjector())
        let parent = try TraceParent(validating: try #require(headers["traceparent"]))
        #expect(parent.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(parent.parentID == span.context.w3cSpanContext?.spanID)
        #expect(parent.isSampled)
        #expect(headers["tracestate"] == "congo=t61rcWkgMzE")
    }

    @Test func anUnsampledTraceRecordsNothingButIsPassedOn() {
        let unsampled = TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")
        let span = tracer.startSpan("quiet", context: tracer.context(continuing: unsampled))
        #expect(!span.isRecording)
        span.end()
        #expect(spans.finishedSpans.isEmpty)
        var headers: [String: String] = [:]
        tracer.inject(span.context, into: &headers, using: DictionaryInjector())
        #expect(headers["traceparent"]?.hasSuffix("-00") == true)
    }

    @Test func withoutAValidParentASpanStartsATrace() throws {
        let garbage = TraceContext(traceparent: "00-00000000000000000000000000000000-00f067aa0ba902b7-01")
        let span = tracer.startSpan("root", context: tracer.context(continuing: garbage))
        span.end()
        let finished = try #require(spans.finishedSpans.first)
        #expect(finished.parentSpanID == nil)
        #expect(finished.context.traceID.count == 32 && finished.context.traceID != String(repeating: "0", count: 32))
        #expect(try TraceParent(validating: finished.context.traceparent).traceID == finished.context.traceID)
    }

    @Test func aSpanEndsOnce() {
        let span = tracer.startSpan("twice", context: .topLevel)
        span.end()
        span.end()
        #expect(spans.finishedSpans.count == 1)
    }

    @Test func childSpansNestUnderTheCurrentOne() throws {
        let tracer = tracer
        tracer.withSpan("outer", context: .topLevel) { outer in
            tracer.withSpan("inner") { _ in }
        }
        let inner = try #require(spans.finishedSpans.first { $0.operationName == "inner" })
        let outer = try #require(spans.finishedSpans.first { $0.operationName == "outer" })
        #expect(inner.parentSpanID == outer.context.spanID)
        #expect(inner.context.traceID == outer.context.traceID)
    }

    @Test func errorsAreEventsAndStatus() throws {
        struct Broken: Error {}
        let span = tracer.startSpan("fails", context: .topLevel)
        span.recordError(Broken())
        span.setStatus(SpanStatus(code: .error, message: "broken"))
        span.end()
        let finished = try #require(spans.finishedSpans.first)
        #expect(finished.events.map(\.name) == ["exception"])
        #expect(finished.status == SpanStatus(code: .error, message: "broken"))
    }
}

struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
    }
}
