extension JSONByteWriter {
    /// Appends `text`, which must be ASCII needing no escape (`null`, `true`, a key of a schema), as it is. An
    /// array literal here would be a heap allocation per call: it was most of writing a `true`.
    @inlinable @inline(__always)
    func appendASCII(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @usableFromInline
    func writeNull() { appendASCII("null") }

    func writeBool(_ value: Bool) { value ? appendASCII("true") : appendASCII("false") }

    /// Decimal digits, without going through `String`.
    func writeInteger<T: FixedWidthInteger>(_ value: T) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var position = 20
            while magnitude > 0 {
                position -= 1
                digits[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position..<20]))
        }
    }

    /// Writes a finite double as Foundation does: the shortest text that reads back the same (Swift's
    /// `description`), without a trailing `.0` (`5`, `0.8333`, `1e+16`, `-0`).
    func writeDouble(_ value: Double) {
        // Integral values below 10^15 print as plain digits either way; skip building a String for them.
        if value == value.rounded(.towardZero), abs(value) < 1e15, !(value == 0 && value.sign == .minus) {
            writeInteger(Int64(value))
            return
        }
        writeTrimmed(value.description)
    }

    func writeFloat(_ value: Float) { writeTrimmed(value.description) }

    /// `text` (a number's `description`: a small ASCII string) without a trailing `.0`, copied as one run.
    private func writeTrimmed(_ text: String) {
        let written = text.utf8.withContiguousStorageIfAvailable { utf8 in
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
        bytes.append(UInt8(ascii: "\""))
        // Most texts are stored contiguously (literals, small strings, strings built here): read in place; a
        // bridged or lazily built one is made contiguous first.
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var text = text
            text.withUTF8 { appendEscaped($0) }
        }
        bytes.append(UInt8(ascii: "\""))
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
