import TallyProtocol
import Tracing

/// A small W3C Trace Context tracer for Tally's broker and worker: spans are children of the context's
/// `W3CSpanContext` (extracted from a request's `traceparent`, or made by an enclosing span), recorded when the
/// parent is sampled (or when there is no parent), and handed to a `SpanExporter` when they end.
///
/// It propagates only `traceparent` and `tracestate`, the two headers Tally's envelope carries; swift-otel's
/// tracer does the same by default, so a backend that bootstraps swift-otel and one that uses this tracer agree.
package struct TallyTracer: Tracer {
    package typealias Span = TallySpan

    let exporter: any SpanExporter

    package init(exporter: any SpanExporter) {
        self.exporter = exporter
    }

    package func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> TallySpan {
        var context = context()
        let parent = context.w3cSpanContext
        let identity = W3CSpanContext(
            traceID: parent?.traceID ?? Self.randomHex(bytes: 16), spanID: Self.randomHex(bytes: 8),
            flags: parent?.flags ?? 0x01, traceState: parent?.traceState)
        context.w3cSpanContext = identity
        return TallySpan(
            operationName: operationName, context: context, kind: kind, parentSpanID: parent?.spanID,
            startNanosecondsSinceEpoch: instant().nanosecondsSinceEpoch, isRecording: identity.isSampled,
            exporter: exporter)
    }

    package func forceFlush() {}

    /// Writes the context's span as `traceparent` (and `tracestate` when it has one).
    package func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let span = context.w3cSpanContext else { return }
        injector.inject(span.traceparent, forKey: "traceparent", into: &carrier)
        if let state = span.traceState { injector.inject(state, forKey: "tracestate", into: &carrier) }
    }

    /// Reads `traceparent` (and `tracestate`) into the context when the `traceparent` is valid; anything else
    /// leaves the context as it was (a span started from it is then the root of a new trace).
    package func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let text = extractor.extract(key: "traceparent", from: carrier),
            let parent = try? TraceParent(validating: text)
        else { return }
        context.w3cSpanContext = W3CSpanContext(
            traceID: parent.traceID, spanID: parent.parentID, flags: parent.flags,
            traceState: extractor.extract(key: "tracestate", from: carrier))
    }

    static func randomHex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(count * 2)
        repeat {
            text.removeAll(keepingCapacity: true)
            for _ in 0..<count {
                let byte = UInt8.random(in: 0...255, using: &generator)
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
        } while text.allSatisfy { $0 == UInt8(ascii: "0") }  // all zeros is invalid; vanishingly rare
        return String(decoding: text, as: UTF8.self)
    }
}
