/// Finds the end of a run of plain string bytes: printable ASCII other than `"` and `\`, which a string may hold
/// as they are. Eight bytes are tested at once with word arithmetic ("SWAR"), so that the per-byte loop only
/// sees the bytes that need a decision.
@usableFromInline package enum PlainASCIIScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The first position at or after `start` (and before `count`) whose byte is not plain, or `count`.
    @inline(__always)
    static func endOfRun(in bytes: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var position = start
        while count - position >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self))
            let marks = notPlainMarks(word)
            if marks != 0 { return position + marks.trailingZeroBitCount / 8 }
            position += 8
        }
        while position < count, isPlain(bytes[position]) { position += 1 }
        return position
    }

    /// The high bit of each byte of `word` that is not plain, zero when all eight are. The lowest mark (the
    /// first such byte in memory order) is exact; marks after it may be spurious, because each test's borrow runs
    /// from a matching byte towards the more significant ones, which is all the caller needs.
    static func notPlainMarks(_ word: UInt64) -> UInt64 {
        let nonASCII = word & highBits
        let control = (word &- ones &* 0x20) & ~word & highBits
        return nonASCII | control | zeroBytes(word ^ (ones &* UInt64(UInt8(ascii: "\""))))
            | zeroBytes(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
    }

    /// The high bit of every zero byte of `word` (and possibly of bytes after the first zero byte).
    private static func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highBits }

    static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }
}

extension PlainASCIIScan {
    /// Whether `bytes` are UTF-8 without a NUL byte, as the text of a JSON document must be. The runs of plain
    /// ASCII are skipped by `endOfRun`, the bytes between them are looked at one by one, and only text with a
    /// non-ASCII byte is validated as UTF-8 in full (in place, by `UTF8Span`).
    ///
    /// For saying why a document failed to parse: the parser refuses a NUL byte and invalid UTF-8 anywhere, so a
    /// document that parses is such text already, and checking it first would read every body twice.
    @usableFromInline package static func isUTF8TextWithoutNUL(_ bytes: [UInt8]) -> Bool {
        let scan: (hasNUL: Bool, isASCII: Bool) = bytes.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return (false, true) }
            var isASCII = true
            var position = endOfRun(in: start, from: 0, count: buffer.count)
            while position < buffer.count {
                if buffer[position] == 0 { return (true, false) }
                isASCII = isASCII && buffer[position] < 0x80
                position = endOfRun(in: start, from: position + 1, count: buffer.count)
            }
            return (false, isASCII)
        }
        return !scan.hasNUL && (scan.isASCII || (try? UTF8Span(validating: bytes.span)) != nil)
    }
}
