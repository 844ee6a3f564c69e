extension JSONParser {
    /// Checks the RFC 8259 number grammar, `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, and records the
    /// text. Conversion waits until a type is asked for, because only then is it known whether `1e2` must be an
    /// exact integer or a double. (Works on a local position and the raw bytes: every set of a workout has two
    /// numbers, and going through `index` and `peek` for each byte cost twice as much.)
    @inline(__always)
    mutating func parseNumber() throws(JSONSyntaxError) {
        let start = index
        let bytes = input.baseAddress!
        let end = input.count
        var position = start
        var isComplex = false
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < end, Self.isDigit(bytes[position]) else {
            throw failure("a number needs digits after '-'", at: position)
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < end, Self.isDigit(bytes[position]) {
                throw failure("a number must not have leading zeros", at: position)
            }
        } else {
            position = Self.endOfDigits(bytes, from: position + 1, end: end)
        }
        if position < end, bytes[position] == UInt8(ascii: ".") {
            isComplex = true
            position += 1
            guard position < end, Self.isDigit(bytes[position]) else {
                throw failure("a number needs digits after '.'", at: position)
            }
            position = Self.endOfDigits(bytes, from: position + 1, end: end)
        }
        // `| 0x20` folds `E` onto `e` (and nothing else onto it).
        if position < end, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isComplex = true
            position += 1
            if position < end, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < end, Self.isDigit(bytes[position]) else {
                throw failure("a number needs digits in its exponent", at: position)
            }
            position = Self.endOfDigits(bytes, from: position + 1, end: end)
        }
        index = position
        nodes.appendLeaf(.number, isComplex: isComplex, from: start, to: position)
    }

    /// The first position at or after `position` that is not a digit, or `end`.
    @inline(__always)
    static func endOfDigits(_ bytes: UnsafePointer<UInt8>, from position: Int, end: Int) -> Int {
        var position = position
        while position < end, isDigit(bytes[position]) { position += 1 }
        return position
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}
