/// A single-pass, strict RFC 8259 parser from UTF-8 bytes to a `JSONTape`.
///
/// Strict on purpose: requests come from other programs, and whatever this accepts becomes part of the protocol.
/// It refuses invalid UTF-8, unescaped control characters, lone surrogate escapes, leading zeros, `NaN`/`Infinity`,
/// trailing commas, trailing garbage and nesting deeper than `maximumDepth`, each with a `JSONSyntaxError` that
/// says what and where.
///
/// The copy of the input ends in a zero byte that matches no token, so that the byte at the position is read
/// without a bounds check (the position never passes the end); only error paths ask whether the data has ended.
/// Between tokens the expected byte is tested before whitespace is skipped: requests are mostly compact, and five
/// whitespace tests per member were a tenth of parsing.
struct JSONParser {
    /// Deepest accepted nesting of arrays and objects (Foundation's limit too); deeper input is refused rather
    /// than risking the stack.
    static let maximumDepth = 512

    /// The copy of the document that the tape will own, followed by one zero byte (not part of `input`).
    let input: UnsafeBufferPointer<UInt8>
    var index = 0
    var nodes: JSONNodeWriter

    init(input: UnsafeBufferPointer<UInt8>, expectedNodes: Int) {
        self.input = input
        self.nodes = JSONNodeWriter(expectedNodes: expectedNodes)
    }

    /// Parses a whole document.
    /// - Throws: `JSONSyntaxError`.
    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONTape {
        guard bytes.count < Int(UInt32.max) else {
            throw JSONSyntaxError(offset: 0, reason: "the document is larger than 4 GiB")
        }
        // The copy ends in `JSONTape.padding` zero bytes: the parser reads the byte at its position without a bounds
        // check, and a fast path loads any key's first and last eight bytes as words.
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + JSONTape.padding)
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { copy.initialize(from: base, count: source.count) }
        }
        (copy + bytes.count).initialize(repeating: 0, count: JSONTape.padding)
        let input = UnsafeBufferPointer(start: copy, count: bytes.count)
        // A node takes at least two bytes ("1,"); a set of a workout ("{"reps":8,"weight":60,"unit":"kg"}") about
        // five, a daily record about nine. Room for one per four bytes rarely regrows, and the unused part of a
        // large buffer is never touched.
        var parser = JSONParser(input: input, expectedNodes: bytes.count / 4 + 16)
        do {
            try parser.parseDocument()
        } catch {
            parser.nodes.discard()
            copy.deallocate()
            throw error
        }
        return JSONTape(adoptingBytes: input, nodes: parser.nodes.written)
    }

    private mutating func parseDocument() throws(JSONSyntaxError) {
        skipWhitespace()
        try parseValue(depth: 0)
        skipWhitespace()
        guard atEnd else { throw failure("unexpected data after the top-level value") }
    }

    func failure(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? index, reason: reason)
    }

    /// The byte at the position: the zero after the input once all of it is read.
    var byte: UInt8 {
        @inline(__always) get { input.baseAddress.unsafelyUnwrapped[index] }
    }

    var atEnd: Bool { index >= input.count }

    /// Moves past spaces, tabs and line breaks. Requests are usually compact, so the first byte is checked inline
    /// (every byte of JSON whitespace is at most 0x20) and the loop runs only when there is whitespace.
    @inline(__always)
    mutating func skipWhitespace() {
        guard byte <= 0x20 else { return }
        skipWhitespaceRun()
    }

    private mutating func skipWhitespaceRun() {
        while true {
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Inlined into the container loops (it only dispatches), so that a member or element costs one call, not two.
    @inline(__always)
    mutating func parseValue(depth: Int) throws(JSONSyntaxError) {
        let byte = byte
        switch byte {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        case UInt8(ascii: "t"): try parseLiteral("true", .true)
        case UInt8(ascii: "f"): try parseLiteral("false", .false)
        case UInt8(ascii: "n"): try parseLiteral("null", .null)
        default:
            throw atEnd
                ? failure("unexpected end of data, a value was expected")
                : failure("unexpected character '\(Self.printable(byte))', a value was expected")
        }
    }

    mutating func parseLiteral(_ word: StaticString, _ kind: JSONNode.Kind) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        guard input.count - index >= length else { throw failure("invalid literal, expected '\(word)'") }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: length)
        for offset in 0..<length where input[index + offset] != expected[offset] {
            throw failure("invalid literal, expected '\(word)'", at: index + offset)
        }
        let position = UInt32(index)
        index += length
        nodes.append(
            JSONNode(
                kind: kind, isComplex: false, start: position, length: UInt32(length),
                next: UInt32(nodes.count + 1)))
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) {
        guard depth <= Self.maximumDepth else {
            throw failure("arrays and objects are nested deeper than \(Self.maximumDepth) levels")
        }
        let position = nodes.count
        nodes.append(JSONNode(kind: .array, isComplex: false, start: UInt32(index), length: 0, next: 0))
        index += 1
        skipWhitespace()
        var count: UInt32 = 0
        if byte == UInt8(ascii: "]") {
            index += 1
        } else {
            repeat {
                try parseValue(depth: depth)
                count += 1
            } while try moveToNext(closedBy: UInt8(ascii: "]"), in: "array")
        }
        nodes.close(position, members: count, keysMayRepeat: false, bytes: input.baseAddress!)
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) {
        guard depth <= Self.maximumDepth else {
            throw failure("arrays and objects are nested deeper than \(Self.maximumDepth) levels")
        }
        let position = nodes.count
        nodes.append(
            JSONNode(kind: .object, isComplex: false, start: UInt32(index), length: 0, next: 0))
        index += 1
        skipWhitespace()
        var count: UInt32 = 0
        // One bit per key (see `JSONNodeWriter.keyMark`): while no two keys share a bit, none can be equal.
        var keyMarks: UInt64 = 0
        var keysMayRepeat = false
        if byte == UInt8(ascii: "}") {
            index += 1
        } else {
            repeat {
                guard byte == UInt8(ascii: "\"") else {
                    throw atEnd
                        ? failure("unexpected end of data inside an object")
                        : failure("an object key must be a string (and trailing commas are not allowed)")
                }
                let keyNode = nodes.count
                try parseString()
                if let mark = nodes.keyMark(of: keyNode, bytes: input.baseAddress!) {
                    keysMayRepeat = keysMayRepeat || keyMarks & mark != 0
                    keyMarks |= mark
                } else {
                    keysMayRepeat = true
                }
                if byte != UInt8(ascii: ":") {
                    skipWhitespace()
                    guard byte == UInt8(ascii: ":") else { throw failure("expected ':' after an object key") }
                }
                index += 1
                skipWhitespace()
                try parseValue(depth: depth)
                count += 1
            } while try moveToNext(closedBy: UInt8(ascii: "}"), in: "object")
        }
        nodes.close(position, members: count, keysMayRepeat: keysMayRepeat, bytes: input.baseAddress!)
    }

    /// After an element or a member: moves past the ',' and the whitespace after it and answers `true` (another
    /// one follows), or past the `closing` bracket and answers `false`.
    @inline(__always)
    private mutating func moveToNext(
        closedBy closing: UInt8, in container: StaticString
    ) throws(JSONSyntaxError)
        -> Bool
    {
        if byte <= 0x20 { skipWhitespace() }
        if byte == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
            return true
        }
        guard byte == closing else {
            throw atEnd
                ? failure("unexpected end of data inside an \(container)")
                : failure(
                    "expected ',' or '\(Self.printable(closing))' in an \(container), found '\(Self.printable(byte))'")
        }
        index += 1
        return false
    }

    /// A byte as it can be shown in a message: printable ASCII as is, anything else as hex.
    static func printable(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16, uppercase: true)
    }
}
