import Tracing

/// One span's identity as W3C Trace Context writes it: what `TallyTracer` keeps in a `ServiceContext` and passes
/// on as `traceparent` and `tracestate`.
package struct W3CSpanContext: Sendable, Hashable {
    /// 32 lowercase hex digits.
    package var traceID: String
    /// 16 lowercase hex digits.
    package var spanID: String
    /// Trace flags; bit 0 is `sampled`.
    package var flags: UInt8
    /// The vendors' `tracestate`, passed on as it came.
    package var traceState: String?

    package init(traceID: String, spanID: String, flags: UInt8, traceState: String? = nil) {
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
        self.traceState = traceState
    }

    package var isSampled: Bool { flags & 0x01 != 0 }

    /// `00-<trace-id>-<span-id>-<flags>`.
    package var traceparent: String {
        let digits = Array("0123456789abcdef".utf8)
        let flagText = String(decoding: [digits[Int(flags >> 4)], digits[Int(flags & 0x0f)]], as: UTF8.self)
        return "00-\(traceID)-\(spanID)-\(flagText)"
    }
}

/// The `ServiceContext` key under which `TallyTracer` keeps the current span's `W3CSpanContext`.
package enum W3CSpanContextKey: ServiceContextKey {
    package typealias Value = W3CSpanContext
    package static var nameOverride: String? { "w3c-span-context" }
}

extension ServiceContext {
    /// The span this context belongs to, as `TallyTracer` made or extracted it.
    package var w3cSpanContext: W3CSpanContext? {
        get { self[W3CSpanContextKey.self] }
        set { self[W3CSpanContextKey.self] = newValue }
    }
}
