extension TraceContext {
    /// Most characters of a `tracestate` accepted: the spec's 512, which every vendor must pass on whole.
    public static let maximumTraceStateLength = 512
    /// Most list-members of a `tracestate`, as the spec allows.
    public static let maximumTraceStateMembers = 32

    /// Checks both members by W3C Trace Context Level 1 and returns the `traceparent` read.
    /// - Throws: `TraceContextError` naming the member and what is wrong with it.
    @discardableResult
    public func validated() throws(TraceContextError) -> TraceParent {
        let parent = try TraceParent(validating: traceparent)
        if let tracestate { try Self.validate(tracestate: tracestate) }
        return parent
    }

    /// The `traceparent` read, or `nil` when it is not valid.
    public var parent: TraceParent? { try? TraceParent(validating: traceparent) }

    /// A `tracestate`: at most 32 comma-separated `key=value` list-members (spaces and tabs around the commas,
    /// empty members allowed), each key once; at most 512 characters.
    ///
    /// Keys are `simple-key` (a lowercase letter, then up to 255 of `a-z 0-9 _ - * /`) or `tenant@system`
    /// (`tenant`: a lowercase letter or digit, then up to 240 of those; `system`: a lowercase letter, then up to
    /// 13); values are 1…256 printable ASCII characters other than `,` and `=`, not ending in a space.
    static func validate(tracestate: String) throws(TraceContextError) {
        func problem(_ words: String) -> TraceContextError { TraceContextError(member: "tracestate", words) }
        let bytes = Array(tracestate.utf8)
        guard bytes.count <= maximumTraceStateLength else {
            throw problem("has \(bytes.count) characters; at most \(maximumTraceStateLength) are accepted")
        }
        var keys: Set<ArraySlice<UInt8>> = []
        for rawMember in bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let member = trimmed(rawMember)
            if member.isEmpty { continue }
            guard keys.count < maximumTraceStateMembers else {
                throw problem("has more than \(maximumTraceStateMembers) list-members")
            }
            guard let equals = member.firstIndex(of: UInt8(ascii: "=")) else {
                throw problem("list-member \(keys.count + 1) must be key=value")
            }
            let key = member[..<equals]
            let value = member[(equals + 1)...]
            guard isKey(key) else {
                throw problem(
                    "list-member \(keys.count + 1) has an invalid key: a lowercase letter, then up to 255 of a-z 0-9 _ - * /, or tenant@system"
                )
            }
            guard isValue(value) else {
                throw problem(
                    "list-member \(keys.count + 1) has an invalid value: 1 to 256 printable ASCII characters other than ',' and '=', not ending in a space"
                )
            }
            guard keys.insert(key).inserted else {
                throw problem("the key '\(String(decoding: key, as: UTF8.self))' appears more than once")
            }
        }
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return bytes[bytes.endIndex...] }
        let last = bytes.lastIndex(where: { !isSpace($0) })!
        return bytes[first...last]
    }

    private static func isKey(_ key: ArraySlice<UInt8>) -> Bool {
        if let at = key.firstIndex(of: UInt8(ascii: "@")) {
            let tenant = key[..<at]
            let system = key[(at + 1)...]
            guard let tenantFirst = tenant.first, isLowercaseLetter(tenantFirst) || isDigit(tenantFirst),
                tenant.count <= 241, tenant.dropFirst().allSatisfy(isKeyCharacter)
            else { return false }
            guard let systemFirst = system.first, isLowercaseLetter(systemFirst), system.count <= 14,
                system.dropFirst().allSatisfy(isKeyCharacter)
            else { return false }
            return true
        }
        guard let first = key.first, isLowercaseLetter(first), key.count <= 256 else { return false }
        return key.dropFirst().allSatisfy(isKeyCharacter)
    }

    private static func isValue(_ value: ArraySlice<UInt8>) -> Bool {
        guard let last = value.last, value.count <= 256, last != 0x20 else { return false }
        return value.allSatisfy { (0x20...0x7e).contains($0) && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "=") }
    }

    private static func isLowercaseLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isKeyCharacter(_ byte: UInt8) -> Bool {
        isLowercaseLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "/")
    }
}
