extension JSONParser {
    /// Checks the RFC 8259 number grammar, `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, and records the
    /// text. Conversion waits until a type is asked for, because only then is it known whether `1e2` must be an
    /// exact integer or a double; only a small plain number's digits, gathered on the way, are packed into the node
    /// (`JSONSmallNumber`). (Works on a local position and the raw bytes: every set of a workout has two
    /// numbers, and going through `index` and `byte` for each byte cost twice as much.)
    @inline(__always)
    mutating func parseNumber() throws(JSONSyntaxError) {
        let start = index
        let bytes = input.baseAddress!
        let end = input.count
        var position = start
        // The digits, without the point, as an integer (wrapping: only a short text's value is used).
        var digits = 0
        var fractionDigits = 0
        var hasExponent = false
        let isNegative = bytes[position] == UInt8(ascii: "-")
        if isNegative { position += 1 }
        guard position < end, Self.isDigit(bytes[position]) else {
            throw failure("a number needs digits after '-'", at: position)
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < end, Self.isDigit(bytes[position]) {
                throw failure("a number must not have leading zeros", at: position)
            }
        } else {
            Self.readDigits(bytes, from: &position, end: end, into: &digits)
        }
        if position < end, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < end, Self.isDigit(bytes[position]) else {
                throw failure("a number needs digits after '.'", at: position)
            }
            let fractionStart = position
            Self.readDigits(bytes, from: &position, end: end, into: &digits)
            fractionDigits = position - fractionStart
        }
        // `| 0x20` folds `E` onto `e` (and nothing else onto it).
        if position < end, bytes[position] | 0x20 == UInt8(ascii: "e") {
            hasExponent = true
            position += 1
            if position < end, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < end, Self.isDigit(bytes[position]) else {
                throw failure("a number needs digits in its exponent", at: position)
            }
            var exponent = 0
            Self.readDigits(bytes, from: &position, end: end, into: &exponent)
        }
        index = position
        let isSmall = !isNegative && !hasExponent && position - start <= 6
        nodes.appendLeaf(
            .number, isComplex: hasExponent || fractionDigits > 0,
            small: isSmall ? JSONSmallNumber.packed(digits: digits, fractionDigits: fractionDigits) : 0,
            from: start, to: position)
    }

    /// Moves `position` past a run of digits, accumulating their value into `value` (wrapping).
    @inline(__always)
    static func readDigits(_ bytes: UnsafePointer<UInt8>, from position: inout Int, end: Int, into value: inout Int) {
        while position < end {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return }
            value = value &* 10 &+ Int(digit)
            position += 1
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}
