/// Bytes of JSON text written by the gateway itself: the envelopes it makes around a caller's params.
enum JSONText {
    /// Appends `text` as a JSON string: `"` and `\` escaped, control characters as `\u00XX`, the rest as UTF-8.
    /// What a caller sent in a header (`tracestate` may hold quotes and backslashes) cannot end the string.
    static func appendString(_ text: some StringProtocol, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `"name":` then the value's bytes.
    static func appendMember(_ name: StaticString, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// `{"traceparent":…,"tracestate":…}`, the envelope's `trace`.
    static func appendTrace(_ trace: TraceHeaders, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        appendMember("traceparent", to: &bytes)
        appendString(trace.traceparent, to: &bytes)
        if let tracestate = trace.tracestate {
            bytes.append(UInt8(ascii: ","))
            appendMember("tracestate", to: &bytes)
            appendString(tracestate, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }
}
