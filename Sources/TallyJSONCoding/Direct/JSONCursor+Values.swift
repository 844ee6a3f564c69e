extension JSONCursor {
    // MARK: Numbers

    /// Reads an integer written as one (`-?(0|[1-9][0-9]*)`, at most 18 digits): `nil` for anything else, a
    /// fraction or an exponent included (`5.0` and `1e2` are the standard decoder's to judge), and for `-0`.
    @inlinable @inline(__always)
    package mutating func int() -> Int? {
        var cursor = position
        let negative = cursor < end && cursor.pointee == UInt8(ascii: "-")
        if negative { cursor += 1 }
        let digitsStart = cursor
        var value = 0
        while cursor < end {
            let digit = cursor.pointee &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int(digit)
            cursor += 1
        }
        let digits = cursor - digitsStart
        guard digits > 0, digits <= 18, digits == 1 || digitsStart.pointee != UInt8(ascii: "0") else { return nil }
        if cursor < end {
            let next = cursor.pointee
            guard next != UInt8(ascii: "."), next | 0x20 != UInt8(ascii: "e") else { return nil }
        }
        if negative && value == 0 { return nil }
        position = cursor
        return negative ? -value : value
    }

    /// Reads a number as the double the standard decoder gives it, when that is one exact division: at most 15
    /// significant digits and no exponent (`-?int(.frac)?`), so `mantissa / 10^fraction` rounds correctly, as the
    /// standard decoder's conversions (`JSONShortDecimal`, Clinger, `strtod`) all do. Anything else is `nil`.
    @inlinable @inline(__always)
    package mutating func double() -> Double? {
        var cursor = position
        let negative = cursor < end && cursor.pointee == UInt8(ascii: "-")
        if negative { cursor += 1 }
        let integerStart = cursor
        // Signed: at most 15 digits fit, and converting an `Int` is one instruction where a `UInt64` takes several.
        var mantissa = 0
        while cursor < end {
            let digit = cursor.pointee &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ Int(digit)
            cursor += 1
        }
        let integerDigits = cursor - integerStart
        guard integerDigits > 0, integerDigits == 1 || integerStart.pointee != UInt8(ascii: "0") else { return nil }
        var fractionDigits = 0
        if cursor < end, cursor.pointee == UInt8(ascii: ".") {
            cursor += 1
            let fractionStart = cursor
            while cursor < end {
                let digit = cursor.pointee &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ Int(digit)
                cursor += 1
            }
            fractionDigits = cursor - fractionStart
            guard fractionDigits > 0 else { return nil }
        }
        guard integerDigits + fractionDigits <= 15 else { return nil }
        if cursor < end, cursor.pointee | 0x20 == UInt8(ascii: "e") { return nil }
        position = cursor
        var magnitude = Double(mantissa)
        // A whole number needs no division (a weight of 50, a distance of 1200): the conversion alone is exact.
        if fractionDigits > 0 { magnitude /= Self.powerOfTen(fractionDigits) }
        return negative ? -magnitude : magnitude
    }

    /// 10^`exponent` for 0…15, each exact in a double. A switch, not a global array: the array's lazy
    /// initialization check ran once per number read.
    @inlinable @inline(__always)
    static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }

    // MARK: Strings

    /// Reads a string without escapes and hands its bytes (valid UTF-8, no control characters) to `parse`: a date,
    /// an instant, a closed set's name, read where it lies. `nil` when the value is not such a string or `parse`
    /// refuses it.
    @inlinable @inline(__always)
    package mutating func text<Value>(_ parse: (UnsafeBufferPointer<UInt8>) -> Value?) -> Value? {
        let start = position
        guard let bytes = plainString() else { return nil }
        guard let value = parse(bytes) else {
            position = start  // like every read that gives up: nothing read
            return nil
        }
        return value
    }

    /// Reads a string as a `String`: without escapes, or with the one-character escapes (`escapedString()`); `nil`
    /// for anything else.
    @inlinable
    package mutating func string() -> String? {
        guard let bytes = plainString() else { return escapedString() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads a string whose escapes are all of one character (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`) to
    /// the text they stand for, as the standard decoder reads them; `nil` (nothing read) for a `\u` escape or
    /// anything else `plainString()` refuses. Why: Foundation's `JSONEncoder` writes every `/` as `\/` unless told not
    /// to, so a backend that encodes its requests with it sends `"Europe\/Berlin"`; without this, such a request went
    /// whole to the standard decoder.
    @usableFromInline
    mutating func escapedString() -> String? {
        guard position < end, position.pointee == UInt8(ascii: "\"") else { return nil }
        var cursor = position + 1
        var text: [UInt8] = []
        var isASCII = true
        while cursor < end {
            let byte = cursor.pointee
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20 else { return nil }
            guard byte == UInt8(ascii: "\\") else {
                isASCII = isASCII && byte < 0x80
                text.append(byte)
                cursor += 1
                continue
            }
            guard end - cursor >= 2 else { return nil }
            switch cursor[1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(cursor[1])
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            default: return nil
            }
            cursor += 2
        }
        guard cursor < end else { return nil }
        let valid = isASCII || text.withUnsafeBufferPointer { Self.isValidUTF8($0) }
        guard valid else { return nil }
        position = cursor + 1
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads a string value without escapes: its bytes between the quotes, checked as JSON text (valid UTF-8, no
    /// control characters), or `nil` (nothing read) for anything else.
    @inlinable @inline(__always)
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard position < end, position.pointee == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        var cursor = start
        var isASCII = true
        while cursor < end {
            let byte = cursor.pointee
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            isASCII = isASCII && byte < 0x80
            cursor += 1
        }
        guard cursor < end else { return nil }
        let bytes = UnsafeBufferPointer(start: start, count: cursor - start)
        guard isASCII || Self.isValidUTF8(bytes) else { return nil }
        position = cursor + 1
        return bytes
    }

    /// Whether `bytes` are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF),
    /// as the standard parser requires of every string.
    @usableFromInline
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    // MARK: Arrays

    /// Reads an array whose every element `element` reads, into an array reserved by the element count seen so
    /// far; `nil` when an element is not read, or the list holds more than `maxListElements` (which the standard
    /// decoder refuses, naming the list).
    @inlinable @inline(__always)
    package mutating func array<Element>(_ element: (inout JSONCursor) -> Element?) -> [Element]? {
        guard consume(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        skipWhitespace()
        if position < end, position.pointee == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        // Room for a few at once: most lists inside a request are short (a workout's exercises, an exercise's
        // sets), and growing one element at a time reallocated each of them two or three times.
        elements.reserveCapacity(8)
        while true {
            guard elements.count < maxListElements else { return nil }
            skipWhitespace()
            guard let value = element(&self) else { return nil }
            elements.append(consume value)
            skipWhitespace()
            guard position < end else { return nil }
            let byte = position.pointee
            position += 1
            if byte == UInt8(ascii: "]") { return elements }
            guard byte == UInt8(ascii: ",") else { return nil }
        }
    }
}
