extension JSONParser {
    /// Checks the RFC 8259 number grammar, `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, and records the
    /// text. Conversion waits until a type is asked for, because only then is it known whether `1e2` must be an
    /// exact integer or a double.
    mutating func parseNumber(parent: UInt32) throws(JSONSyntaxError) {
        let start = index
        var isComplex = false
        if input[index] == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, Self.isDigit(first) else { throw failure("a number needs digits after '-'") }
        index += 1
        if first == UInt8(ascii: "0") {
            if let next = peek, Self.isDigit(next) { throw failure("a number must not have leading zeros") }
        } else {
            skipDigits()
        }
        if peek == UInt8(ascii: ".") {
            isComplex = true
            index += 1
            guard let next = peek, Self.isDigit(next) else { throw failure("a number needs digits after '.'") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isComplex = true
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let next = peek, Self.isDigit(next) else { throw failure("a number needs digits in its exponent") }
            skipDigits()
        }
        tape.append(JSONNode(kind: .number, isComplex: isComplex, start: UInt32(start), length: UInt32(index - start),
                              next: UInt32(tape.nodeCount + 1), parent: parent))
    }

    mutating func skipDigits() {
        while index < input.count, Self.isDigit(input[index]) { index += 1 }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}
