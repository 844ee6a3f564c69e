/// Finds the top-level `"id"` string of a JSON envelope without decoding the document.
///
/// The broker uses it to address its own error replies (`overloaded`, `unavailable`) and the client uses it to
/// match replies to requests: both must work on bodies they do not otherwise parse, fast and without trapping on
/// any input. Anything unexpected yields `nil`.
@usableFromInline package enum EnvelopeScanner {
    /// The value of the top-level `"id"` member if it is a string without escapes, else `nil`.
    @usableFromInline package static func id(in body: some Collection<UInt8>) -> String? {
        scan(body) { scanner in scanner.topLevelString(named: "id") }
    }

    /// The value of the top-level `"method"` member if it is a string without escapes, else `nil`: for log lines
    /// about bodies that are not otherwise parsed.
    @usableFromInline package static func method(in body: some Collection<UInt8>) -> String? {
        scan(body) { scanner in scanner.topLevelString(named: "method") }
    }

    /// The bytes of the top-level `"id"` string when it has no escapes and at most 128 bytes, as a slice of
    /// `body`: what `id(in:)` reads, without making a `String` of it. For comparing ids on a hot path (the broker
    /// ties each reply to its request by them); the bytes are not checked to be UTF-8.
    @usableFromInline package static func rawID(in body: [UInt8]) -> ArraySlice<UInt8>? {
        body.withUnsafeBytes { rawIDRange(in: $0) }.map { body[$0] }
    }

    /// Where `rawID(in:)` finds the id: for bytes that are not an array (a frame still in its libzmq message).
    @usableFromInline package static func rawIDRange(in body: UnsafeRawBufferPointer) -> Range<Int>? {
        var scanner = Scanner(head: body)
        guard scanner.seekTopLevelMember(named: "id"), scanner.peek == UInt8(ascii: "\""),
            let value = scanner.readString(), value.count <= 128, !value.contains(UInt8(ascii: "\\"))
        else { return nil }
        return value.startIndex..<value.endIndex
    }

    /// The top-level `"id"` (as `rawID(in:)` reads it) and, for an error response, `error.code` (a string without
    /// escapes of at most `maxCodeBytes`) of a reply, as slices of `body`, in one pass over its head. Members are
    /// read in order and the scan ends once the id and the outcome (`result` or `error`) are known: Tally writes
    /// `version`, `id`, then one of them, so a large result is never walked. The broker reads every reply so.
    @usableFromInline package static func replyHead(
        in body: [UInt8], maxCodeBytes: Int = 32
    ) -> (id: ArraySlice<UInt8>?, errorCode: ArraySlice<UInt8>?) {
        let ranges = body.withUnsafeBytes { replyHeadRanges(in: $0, maxCodeBytes: maxCodeBytes) }
        return (ranges.id.map { body[$0] }, ranges.errorCode.map { body[$0] })
    }

    /// Where `replyHead(in:maxCodeBytes:)` finds the id and the error code, in bytes that are not an array.
    @usableFromInline package static func replyHeadRanges(
        in body: UnsafeRawBufferPointer, maxCodeBytes: Int = 32
    ) -> (id: Range<Int>?, errorCode: Range<Int>?) {
        var scanner = Scanner(head: body)
        return scanner.replyHead(maxCodeBytes: maxCodeBytes)
    }

    /// The `error.code` of a response, or `nil` for a result (or anything that is not a v1 response). The members
    /// are read in order up to the outcome, as the broker reads them (`replyHead(in:maxCodeBytes:)`): a `result`
    /// ends the scan, so that a client reading every reply never walks a large result for a code it cannot hold.
    @usableFromInline package static func errorCode(in body: some Collection<UInt8>) -> String? {
        scan(body) { scanner in
            guard scanner.seekTopLevelMember(named: "error", before: "result"), scanner.peek == UInt8(ascii: "{") else {
                return nil
            }
            return scanner.topLevelString(named: "code")
        }
    }

    /// How far into a body `trace(in:)` looks: a `trace` written before the params (as Tally's clients write it)
    /// is found in any request, and a scan never walks a large body.
    @usableFromInline package static let traceScanLimit = 4096

    /// The top-level `"trace"` member's `traceparent` and `tracestate`, when they are strings without escapes
    /// within the body's first `traceScanLimit` bytes; not validated. For the broker's log lines about requests
    /// it does not otherwise parse.
    @usableFromInline package static func trace(in body: some Collection<UInt8>) -> TraceContext? {
        var tracestate: String?
        let traceparent = scan(body, limit: traceScanLimit) { scanner -> String? in
            guard scanner.seekTopLevelMember(named: "trace"), scanner.peek == UInt8(ascii: "{") else { return nil }
            let object = scanner.index
            guard let parent = scanner.topLevelString(named: "traceparent", maxBytes: 256) else { return nil }
            scanner.index = object
            tracestate = scanner.topLevelString(named: "tracestate", maxBytes: TraceContext.maximumTraceStateLength)
            return parent
        }
        return traceparent.map { TraceContext(traceparent: $0, tracestate: tracestate) }
    }

    /// Runs `work` over the body's first `limit` bytes (a MiB unless told): in place when the bytes are contiguous
    /// (an array, a frame: the client scans every reply twice, so a copy per scan would be a copy per reply), else
    /// over a copy.
    private static func scan(
        _ body: some Collection<UInt8>, limit: Int = 1 << 20, _ work: (inout Scanner) -> String?
    ) -> String? {
        let inPlace = body.withContiguousStorageIfAvailable { buffer in
            var scanner = Scanner(bytes: UnsafeBufferPointer(rebasing: buffer.prefix(limit)))
            return work(&scanner)
        }
        if let inPlace { return inPlace }
        return Array(body.prefix(limit)).withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            return work(&scanner)
        }
    }

    /// Reads bytes it does not own: it lives only inside `scan`'s closure.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// Over the first MiB of `body`: the head that every read of a hot path looks at, whatever the body's size.
        init(head body: UnsafeRawBufferPointer) {
            bytes = UnsafeBufferPointer(rebasing: body.assumingMemoryBound(to: UInt8.self).prefix(1 << 20))
        }

        /// Reads the object starting here and returns its member `name` if that is a string of at most `maxBytes`
        /// without escapes.
        mutating func topLevelString(named name: StaticString, maxBytes: Int = 128) -> String? {
            guard seekTopLevelMember(named: name), peek == UInt8(ascii: "\"") else { return nil }
            guard let value = readString(), value.count <= maxBytes, !value.contains(UInt8(ascii: "\\")) else {
                return nil
            }
            return String(validating: UnsafeBufferPointer(rebasing: value), as: UTF8.self)
        }

        /// `EnvelopeScanner.replyHead(in:maxCodeBytes:)` from the start of the bytes, as ranges.
        mutating func replyHead(maxCodeBytes: Int) -> (Range<Int>?, Range<Int>?) {
            var id: Range<Int>?
            var idSeen = false
            var outcomeSeen = false
            var error: Int?
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return (nil, nil) }
            members: while !(idSeen && outcomeSeen) {
                skipSpace()
                guard let key = readString() else { break }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { break }
                skipSpace()
                if !idSeen, Self.key(key, is: "id") {
                    idSeen = true
                    if peek == UInt8(ascii: "\""), let value = readString() {
                        if value.count <= 128, !value.contains(UInt8(ascii: "\\")) {
                            id = value.startIndex..<value.endIndex
                        }
                    } else if !skipValue(depth: 0) {
                        break
                    }
                } else {
                    if Self.key(key, is: "result") { outcomeSeen = true }
                    if Self.key(key, is: "error") {
                        outcomeSeen = true
                        if peek == UInt8(ascii: "{") { error = index }
                    }
                    // A result seen with the id known ends the scan before its value is walked.
                    if idSeen && outcomeSeen { break members }
                    guard skipValue(depth: 0) else { break }
                }
                skipSpace()
                guard take(UInt8(ascii: ",")) else { break }
            }
            guard let error else { return (id, nil) }
            index = error
            guard seekTopLevelMember(named: "code"), peek == UInt8(ascii: "\""), let code = readString(),
                !code.isEmpty, code.count <= maxCodeBytes, !code.contains(UInt8(ascii: "\\"))
            else { return (id, nil) }
            return (id, code.startIndex..<code.endIndex)
        }

        /// Moves to the value of member `name` of the object starting here; `false` if there is none, or if member
        /// `stop` comes first (what follows it is not read: `result` for an `error`, since a response has one
        /// outcome).
        mutating func seekTopLevelMember(named name: StaticString, before stop: StaticString? = nil) -> Bool {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return false }
            while true {
                skipSpace()
                guard let key = readString() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                if Self.key(key, is: name) { return true }
                if let stop, Self.key(key, is: stop) { return false }
                guard skipValue(depth: 0) else { return false }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return false
            }
        }

        /// Whether a member's raw key is `name`: the lengths, then the bytes side by side, where comparing with a
        /// `String`'s UTF-8 view went through generic collection code (the broker reads the keys at the head of
        /// every request and reply).
        static func key(_ key: Slice<UnsafeBufferPointer<UInt8>>, is name: StaticString) -> Bool {
            guard key.count == name.utf8CodeUnitCount else { return false }
            let expected = name.utf8Start
            var offset = 0
            for byte in key {
                guard byte == expected[offset] else { return false }
                offset += 1
            }
            return true
        }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// Reads a string's raw bytes (escapes left as they are).
        mutating func readString() -> Slice<UnsafeBufferPointer<UInt8>>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while let byte = peek {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                } else if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    return bytes[start..<index]
                } else {
                    index += 1
                }
            }
            return nil
        }

        mutating func skipValue(depth: Int) -> Bool {
            guard depth < 64, let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "\""):
                return readString() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                index += 1
                skipSpace()
                if take(close) { return true }
                while true {
                    skipSpace()
                    if byte == UInt8(ascii: "{") {
                        guard readString() != nil else { return false }
                        skipSpace()
                        guard take(UInt8(ascii: ":")) else { return false }
                        skipSpace()
                    }
                    guard skipValue(depth: depth + 1) else { return false }
                    skipSpace()
                    if take(close) { return true }
                    guard take(UInt8(ascii: ",")) else { return false }
                }
            default:
                // Numbers, true, false, null: run to the next delimiter.
                let start = index
                while let next = peek, next != UInt8(ascii: ","), next != UInt8(ascii: "}"), next != UInt8(ascii: "]"),
                    next != 0x20, next != 0x09, next != 0x0A, next != 0x0D
                {
                    index += 1
                }
                return index > start
            }
        }
    }
}
