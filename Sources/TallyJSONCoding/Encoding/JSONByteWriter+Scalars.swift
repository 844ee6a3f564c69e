extension JSONByteWriter {
    /// Appends `text`, which must be ASCII needing no escape (`null`, `true`, a key of a schema), as it is. An
    /// array literal here would be a heap allocation per call: it was most of writing a `true`.
    @inlinable @inline(__always)
    func appendASCII(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inlinable
    func writeNull() { appendASCII("null") }

    @inlinable
    func writeBool(_ value: Bool) { value ? appendASCII("true") : appendASCII("false") }

    /// Decimal digits, without going through `String`: written in place at the end of the bytes (a run through a
    /// temporary buffer cost a `memmove` call per number, most of writing a small one), two digits at a time.
    @inlinable @inline(__always)
    func writeInteger<T: FixedWidthInteger>(_ value: T) {
        bytes.append(maxCount: 20) { out in
            guard value < 0 else { return Self.writeDigits(of: UInt64(value), to: out) }
            out.pointee = UInt8(ascii: "-")
            return 1 + Self.writeDigits(of: UInt64(value.magnitude), to: out + 1)
        }
    }

    /// Writes `value` in decimal at `start` (room for 20 bytes) and answers how many digits it wrote. Most integers
    /// of a result are below 100 (an hour, a count of flights, a progress of 1): one store; others are written from
    /// the end two digits at a time, a division by the constant 100 (a multiplication) per pair.
    @inlinable @inline(__always)
    static func writeDigits(of value: UInt64, to start: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 10 {
            start.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            return 1
        }
        if value < 100 {
            writeDigitPair(UInt32(truncatingIfNeeded: value), to: start)
            return 2
        }
        var count = 3
        var bound: UInt64 = 1_000
        while count < 20, value >= bound {
            count += 1
            bound &*= 10
        }
        var rest = value
        var position = start + count
        while rest >= 100 {
            let high = rest / 100
            position -= 2
            writeDigitPair(UInt32(truncatingIfNeeded: rest &- high &* 100), to: position)
            rest = high
        }
        if rest >= 10 {
            writeDigitPair(UInt32(truncatingIfNeeded: rest), to: position - 2)
        } else {
            (position - 1).pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        return count
    }

    /// Writes `value` (0...99) as two digits with one store: the tens are `value * 205 >> 11` (exact below 1,029).
    @inlinable @inline(__always)
    static func writeDigitPair(_ value: UInt32, to start: UnsafeMutablePointer<UInt8>) {
        let tens = (value &* 205) >> 11
        let ones = value &- tens &* 10
        let pair = UInt16(truncatingIfNeeded: tens | ones << 8) | 0x3030
        UnsafeMutableRawPointer(start).storeBytes(of: pair.littleEndian, as: UInt16.self)
    }

    /// Writes a finite double as Foundation does: the shortest text that reads back the same (Swift's
    /// `description`), without a trailing `.0` (`5`, `0.8333`, `1e+16`, `-0`).
    @usableFromInline
    func writeDouble(_ value: Double) {
        // Integral values below 10^15 print as plain digits either way; skip building a String for them. (The
        // truncation through `Int64`, not `rounded(.towardZero)`: that was a call to libm per number.)
        if value.magnitude < 1e15, Double(Int64(value)) == value, !(value == 0 && value.sign == .minus) {
            writeInteger(Int64(value))
            return
        }
        if writeShortDecimal(value) { return }
        writeTrimmed(value.description)
    }

    /// Writes a double that is a decimal of one to four places (every rounded figure of a result: `0.8333`,
    /// `66.14`), between 10^-4 and 10^9, as its digits; `false` (nothing written) for any other.
    ///
    /// The text is `description`'s: the shortest that reads back the same. For the fewest places `p` whose
    /// `n / 10^p` is the value (`n` below 2^53 and `10^p` exact, so that division is the correctly rounded decimal),
    /// the decimal `n·10^-p` reads back as the value, and no text with fewer places does (it would have been found
    /// first); at these magnitudes one place of the last digit is wider than a double's spacing, so no other text
    /// with `p` places does either. `description` writes such numbers without an exponent. `n` is the value scaled
    /// and rounded to the nearest whole number by adding a half and truncating (no libm call); only an `n` that
    /// divides back to the value exactly is written, so a rounding that went the other way is never written, only
    /// not found. `description` would make a `String` per number. `ShortDecimalTests` compares the two on every
    /// kind of figure.
    @inline(__always)
    private func writeShortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 1e-4, magnitude < 1e9 else { return false }
        var scale = 10.0
        for places in 1...4 {
            let digits = UInt64(magnitude * scale + 0.5)
            if Double(digits) / scale == magnitude {
                writeDecimal(digits, places: places, negative: value < 0)
                return true
            }
            scale *= 10
        }
        return false
    }

    /// `digits` as a decimal with `places` (1...4) digits after the point (`6614`, 2 → `66.14`; `5`, 3 → `0.005`),
    /// written in place: whole part, point, the fraction with its leading zeros, two digits at a time.
    private func writeDecimal(_ digits: UInt64, places: Int, negative: Bool) {
        bytes.append(maxCount: 26) { out in
            var position = out
            if negative {
                position.pointee = UInt8(ascii: "-")
                position += 1
            }
            // A division by a constant per case (a multiplication), where `10^places` would be a division.
            let whole: UInt64
            switch places {
            case 1: whole = digits / 10
            case 2: whole = digits / 100
            case 3: whole = digits / 1_000
            default: whole = digits / 10_000
            }
            position += Self.writeDigits(of: whole, to: position)
            position.pointee = UInt8(ascii: ".")
            // The fraction's `places` digits, its leading zeros kept: from the end, two at a time, then one.
            let end = position + 1 + places
            var fraction = UInt32(truncatingIfNeeded: digits &- whole &* Self.powerOfTen(places))
            var cursor = end
            while cursor - position > 2 {
                let high = fraction / 100
                cursor -= 2
                Self.writeDigitPair(fraction &- high &* 100, to: cursor)
                fraction = high
            }
            if cursor - position == 2 { position[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction) }
            return end - out
        }
    }

    /// 10^`places` for 1...4.
    @inline(__always)
    private static func powerOfTen(_ places: Int) -> UInt64 {
        switch places {
        case 1: 10
        case 2: 100
        case 3: 1_000
        default: 10_000
        }
    }

    func writeFloat(_ value: Float) { writeTrimmed(value.description) }

    /// `text` (a number's `description`: a small ASCII string) without a trailing `.0`, copied as one run.
    private func writeTrimmed(_ text: String) {
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            let count = utf8.count
            let trimmed =
                count >= 2 && utf8[count - 2] == UInt8(ascii: ".") && utf8[count - 1] == UInt8(ascii: "0")
                ? count - 2 : count
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<trimmed]))
        }
        guard written == nil else { return }
        bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    /// A JSON string, escaped as Foundation escapes with `.withoutEscapingSlashes`: quote, backslash and control
    /// characters only (`\n`-style where one exists, else `\u00xx`); everything else as UTF-8.
    @usableFromInline
    func writeString(_ text: String) {
        // Most texts are stored contiguously (literals, small strings, strings built here): read in place; a
        // bridged or lazily built one is made contiguous first.
        if text.utf8.withContiguousStorageIfAvailable({ writeQuoted($0) }) == nil {
            var text = text
            text.withUTF8 { writeQuoted($0) }
        }
    }

    /// `utf8` between quotes. Almost every text of a result (an id, a name, a closed set's name) has nothing to
    /// escape: that is found eight bytes at a time, and the text copied with its quotes in one reservation. A byte
    /// at a time with a copy per run would cost more than the rest of writing a calendar's activity.
    private func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let base = utf8.baseAddress, !Self.needsEscaping(utf8) else {
            bytes.append(UInt8(ascii: "\""))
            appendEscaped(utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        let count = utf8.count
        bytes.append(maxCount: count + 2) { out in
            out.pointee = UInt8(ascii: "\"")
            (out + 1).update(from: base, count: count)
            out[count + 1] = UInt8(ascii: "\"")
            return count + 2
        }
    }

    /// Whether `utf8` holds a byte JSON escapes: a control character, a quote or a backslash.
    ///
    /// Eight bytes at a time: a word has a byte equal to `b` when `w ^ bbbb…` has a zero byte, and a zero byte (or
    /// one below 0x20) shows as a high bit of `(x - 0101…) & ~x & 8080…` (`x - 2020…` for below 0x20): a borrow
    /// never makes a byte look special unless a byte before it is.
    @inline(__always)
    static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let count = utf8.count
        var index = 0
        while count - index >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let quotes = word ^ 0x2222_2222_2222_2222
            let backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
            let special =
                (word &- 0x2020_2020_2020_2020) & ~word
                | (quotes &- 0x0101_0101_0101_0101) & ~quotes
                | (backslashes &- 0x0101_0101_0101_0101) & ~backslashes
            if special & 0x8080_8080_8080_8080 != 0 { return true }
            index += 8
        }
        while index < count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            index += 1
        }
        return false
    }

    /// The UTF-8 `utf8` with quote, backslash and control characters escaped.
    private func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            runStart = index + 1
            appendEscape(of: byte)
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }

    private func appendEscape(of byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex: StaticString = "0123456789abcdef"
            appendASCII("u00")
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }
}
