extension JSONParser {
    /// Checks a string: UTF-8 well-formed (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF),
    /// no raw control characters, only the escapes RFC 8259 defines, and `\u` surrogates only in valid pairs.
    /// The node keeps the raw range; whether it has escapes decides if decoding must unescape.
    ///
    /// Runs of plain ASCII (the bulk of any request) are skipped eight bytes at a time (`PlainASCIIScan`); only
    /// the quote, escapes, control characters and multi-byte sequences are looked at one by one.
    @inline(__always)
    mutating func parseString() throws(JSONSyntaxError) {
        let start = index + 1
        let bytes = input.baseAddress!
        var hasEscapes = false
        var position = start
        while true {
            position = PlainASCIIScan.endOfRun(in: bytes, from: position, count: input.count)
            guard position < input.count else {
                throw failure("unexpected end of data inside a string", at: start - 1)
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            index = position
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try skipEscape()
            } else if byte < 0x20 {
                throw failure("a control character (\(Self.printable(byte))) must be escaped in a string")
            } else {
                try skipMultiByteScalar()
            }
            position = index
        }
        nodes.appendLeaf(.string, isComplex: hasEscapes, from: start, to: position)
        index = position + 1
    }

    private mutating func skipEscape() throws(JSONSyntaxError) {
        guard index + 1 < input.count else { throw failure("unexpected end of data in an escape") }
        switch input[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            let unit = try hexEscape(at: index)
            index += 6
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < input.count, input[index] == UInt8(ascii: "\\"),
                    input[index + 1] == UInt8(ascii: "u"), (0xDC00...0xDFFF).contains(try hexEscape(at: index))
                else {
                    throw failure("a high surrogate escape must be followed by a low surrogate escape", at: index - 6)
                }
                index += 6
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw failure("a low surrogate escape without a high surrogate before it", at: index - 6)
            }
        default:
            throw failure("invalid escape '\\\(Self.printable(input[index + 1]))'")
        }
    }

    /// The code unit of `\uXXXX` starting at `position` (the backslash).
    func hexEscape(at position: Int) throws(JSONSyntaxError) -> UInt16 {
        guard position + 6 <= input.count else { throw failure("unexpected end of data in a \\u escape", at: position) }
        var unit: UInt16 = 0
        for offset in 2..<6 {
            guard let digit = Self.hexValue(input[position + offset]) else {
                throw failure("a \\u escape needs four hexadecimal digits", at: position + offset)
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Validates one 2-, 3- or 4-byte UTF-8 sequence starting at `index` (Unicode table 3-7).
    private mutating func skipMultiByteScalar() throws(JSONSyntaxError) {
        let lead = input[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw failure("invalid UTF-8 (byte \(Self.printable(lead)))")
        }
        guard index + length <= input.count, secondRange.contains(input[index + 1]) else {
            throw failure("invalid UTF-8 sequence")
        }
        for offset in 2..<length where !(0x80...0xBF).contains(input[index + offset]) {
            throw failure("invalid UTF-8 sequence")
        }
        index += length
    }
}
