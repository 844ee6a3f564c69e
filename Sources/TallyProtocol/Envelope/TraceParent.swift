/// A `traceparent` read by W3C Trace Context Level 1: `00-<trace-id>-<parent-id>-<trace-flags>`.
///
/// Version 00 is exactly 55 characters of lowercase hex and dashes. A higher version (01…fe) is read as the spec's
/// forward-compatibility rules say: the same first 55 characters, then the end or a dash and whatever that version
/// added, which is ignored. Version ff, an all-zero trace-id or parent-id, uppercase hex and anything else are
/// refused with the reason in words (`TraceContextError`), never trapped on.
public struct TraceParent: Sendable, Hashable, CustomStringConvertible {
    /// The version the sender wrote (0 for `00`).
    public let version: UInt8
    /// 32 lowercase hex digits, not all zero: the whole trace's id.
    public let traceID: String
    /// 16 lowercase hex digits, not all zero: the id of the caller's span, the parent of any span made for it.
    public let parentID: String
    /// The trace flags; bit 0 is `sampled`.
    public let flags: UInt8

    /// Whether the caller records the trace (flag bit 0).
    public var isSampled: Bool { flags & 0x01 != 0 }

    /// The value as version 00 writes it: what is passed on, whatever version came in.
    public var description: String {
        "00-\(traceID)-\(parentID)-\(Self.hex(flags))"
    }

    /// - Parameters:
    ///   - traceID: 32 lowercase hex digits, not all zero.
    ///   - parentID: 16 lowercase hex digits, not all zero.
    ///   - flags: the trace flags (`0x01`: sampled).
    /// - Throws: `TraceContextError` when an id is not of that form.
    public init(traceID: String, parentID: String, flags: UInt8 = 0x01) throws(TraceContextError) {
        try self.init(validating: "00-\(traceID)-\(parentID)-\(Self.hex(flags))")
    }

    /// Reads a `traceparent` header value.
    /// - Throws: `TraceContextError` for `traceparent`, saying what is wrong.
    public init(validating text: String) throws(TraceContextError) {
        let bytes = Array(text.utf8)
        func problem(_ words: String) -> TraceContextError { TraceContextError(member: "traceparent", words) }
        guard bytes.count >= 55 else {
            throw problem(
                "must be VERSION-TRACE_ID-PARENT_ID-FLAGS in lowercase hex (55 characters for version 00), not \(bytes.count) characters"
            )
        }
        guard let version = Self.hexByte(bytes[0], bytes[1]) else {
            throw problem("must start with a 2-digit lowercase hex version, not '\(Self.shown(bytes[0..<2]))'")
        }
        guard version != 0xff else { throw problem("version ff is invalid") }
        guard bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"), bytes[52] == UInt8(ascii: "-") else {
            throw problem("must be VERSION-TRACE_ID-PARENT_ID-FLAGS with dashes after 2, 32 and 16 hex digits")
        }
        if version == 0 {
            guard bytes.count == 55 else { throw problem("version 00 has 55 characters, not \(bytes.count)") }
        } else {
            guard bytes.count == 55 || bytes[55] == UInt8(ascii: "-") else {
                throw problem("version \(Self.hex(version)): the flags must be followed by the end or a dash")
            }
        }
        let traceID = bytes[3..<35]
        let parentID = bytes[36..<52]
        guard traceID.allSatisfy(Self.isLowercaseHex) else {
            throw problem("trace-id must be 32 lowercase hex digits, not '\(Self.shown(traceID))'")
        }
        guard traceID.contains(where: { $0 != UInt8(ascii: "0") }) else {
            throw problem("trace-id must not be all zeros")
        }
        guard parentID.allSatisfy(Self.isLowercaseHex) else {
            throw problem("parent-id must be 16 lowercase hex digits, not '\(Self.shown(parentID))'")
        }
        guard parentID.contains(where: { $0 != UInt8(ascii: "0") }) else {
            throw problem("parent-id must not be all zeros")
        }
        guard let flags = Self.hexByte(bytes[53], bytes[54]) else {
            throw problem("trace-flags must be 2 lowercase hex digits, not '\(Self.shown(bytes[53..<55]))'")
        }
        self.version = version
        self.traceID = String(decoding: traceID, as: UTF8.self)
        self.parentID = String(decoding: parentID, as: UTF8.self)
        self.flags = flags
    }

    static func isLowercaseHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    private static func hexByte(_ high: UInt8, _ low: UInt8) -> UInt8? {
        guard let high = digit(high), let low = digit(low) else { return nil }
        return high << 4 | low
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        guard isLowercaseHex(byte) else { return nil }
        return byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : byte - UInt8(ascii: "a") + 10
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]], as: UTF8.self)
    }

    /// A part of the sender's text for a message: printable ASCII as it is, anything else as `?`.
    private static func shown(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { (0x20...0x7e).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}

/// Why a `traceparent` or `tracestate` was refused.
public struct TraceContextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `traceparent` or `tracestate`.
    public let member: String
    /// What is wrong, in words.
    public let problem: String

    init(member: String, _ problem: String) {
        self.member = member
        self.problem = problem
    }

    public var description: String { "\(member): \(problem)" }
}
