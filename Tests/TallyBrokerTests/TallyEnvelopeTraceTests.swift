import Majordomo
import TallyBroker
import Testing
import ZeroMQ

/// The broker reads a request's trace for its log lines by a bounded scan, never a parse: found where Tally's
/// clients write it (before the params), checked by W3C Trace Context, and absent rather than wrong otherwise.
@Suite struct TallyEnvelopeTraceTests {
    static let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    let envelope = TallyEnvelope()

    func traceOf(_ body: String) -> RequestTrace? { envelope.trace(ofRequest: [Frame(body)]) }

    @Test func readsTheTraceBeforeTheParams() throws {
        let body =
            #"{"version":1,"id":"r","method":"system.ping","trace":{"tracestate":"a=1","traceparent":"\#(Self.traceparent)"},"params":{}}"#
        let trace = try #require(traceOf(body))
        #expect(trace.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(trace.parentID == "00f067aa0ba902b7")
        #expect(trace.traceparent == Self.traceparent)
        #expect(trace.tracestate == "a=1")
        #expect(trace.logMetadata.mapValues { "\($0)" } == ["trace_id": trace.traceID, "span_id": trace.parentID])
    }

    @Test func readsATraceAfterSmallParamsButNotPastTheScanLimit() {
        let small = #"{"id":"r","params":{"records":[1,2,3]},"trace":{"traceparent":"\#(Self.traceparent)"}}"#
        #expect(traceOf(small)?.traceparent == Self.traceparent)
        let padding = String(repeating: "1,", count: 3000) + "1"
        let large = #"{"id":"r","params":{"records":[\#(padding)]},"trace":{"traceparent":"\#(Self.traceparent)"}}"#
        #expect(traceOf(large) == nil)
    }

    @Test(arguments: [
        #"{"id":"r","method":"system.ping"}"#,
        #"{"id":"r","trace":{"traceparent":"garbage"}}"#,
        #"{"id":"r","trace":{"traceparent":"00-00000000000000000000000000000000-00f067aa0ba902b7-01"}}"#,
        #"{"id":"r","trace":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","tracestate":"A=1"}}"#,
        #"{"id":"r","trace":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}"#,
        #"{"id":"r","params":{"trace":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}"#,
        "not json", "",
    ])
    func noTraceWhenThereIsNoValidOneAtTheTop(body: String) {
        #expect(traceOf(body) == nil)
    }

    @Test func aBodyOfSeveralFramesHasNoTrace() {
        let body = #"{"id":"r","trace":{"traceparent":"\#(Self.traceparent)"}}"#
        #expect(envelope.trace(ofRequest: [Frame(body), Frame("x")]) == nil)
    }

    @Test func deliveriesAreTracedOnlyWhenAsked() {
        #expect(!TallyEnvelope().tracesEveryRequest)
        #expect(TallyEnvelope(tracesEveryRequest: true).tracesEveryRequest)
        #expect(!OpaqueEnvelope().tracesEveryRequest)
        #expect(OpaqueEnvelope().trace(ofRequest: [Frame("{}")]) == nil)
    }
}
