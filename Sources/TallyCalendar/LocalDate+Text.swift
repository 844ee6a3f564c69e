/// Why a `yyyy-MM-dd` text is not a date; the description is written for the person who sent it.
public enum LocalDateParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not ten characters of the form `yyyy-MM-dd`.
    case notISODate
    /// Year 0000.
    case yearOutOfRange
    /// Month outside 01...12.
    case monthOutOfRange(Int)
    /// Day 00, or past the end of that month (2025-02-30).
    case dayOutOfRange(day: Int, daysInMonth: Int)

    public var description: String {
        switch self {
        case .notISODate: "expected a calendar date as yyyy-MM-dd"
        case .yearOutOfRange: "year must be 0001...9999"
        case .monthOutOfRange(let month): "month \(month) does not exist (01...12)"
        case .dayOutOfRange(let day, let count): "day \(day) does not exist in that month (it has \(count) days)"
        }
    }
}

extension LocalDate: CustomStringConvertible, LosslessStringConvertible {
    /// Parses exactly `yyyy-MM-dd` (ASCII digits, no sign, no time, no week or ordinal forms).
    /// - Throws: `LocalDateParseError` saying which part is wrong.
    public init(parsing text: some StringProtocol) throws(LocalDateParseError) {
        try self.init(parsing: String(text))
    }

    /// Parses exactly `yyyy-MM-dd`; the `String` form reads the bytes directly, with no generic collection
    /// machinery (requests carry thousands of dates: through the generic form, iterating `utf8` across module
    /// boundaries was a quarter of decoding a 10-year request).
    /// - Throws: `LocalDateParseError` saying which part is wrong.
    public init(parsing text: String) throws(LocalDateParseError) {
        var text = text
        // `withUTF8` rethrows untyped errors: the outcome crosses it as a `Result`.
        self = try text.withUTF8 { bytes in Result { () throws(LocalDateParseError) in try LocalDate(utf8: bytes) } }
            .get()
    }

    /// Parses exactly `yyyy-MM-dd` from UTF-8 bytes, for callers that have them without a `String` (the JSON
    /// decoder's fast path reads dates straight from the request).
    /// - Throws: `LocalDateParseError` saying which part is wrong.
    @inlinable
    public init(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(LocalDateParseError) {
        if let date = LocalDate(checkedUTF8: bytes) {
            self = date
            return
        }
        // Refused: the same checks again, to say which one.
        let (year, month, day) = try Self.fields(of: bytes).get()
        guard year >= 1 else { throw .yearOutOfRange }
        guard (1...12).contains(month) else { throw .monthOutOfRange(month) }
        let length = Self.daysIn(month: month, year: year)
        guard (1...length).contains(day) else { throw .dayOutOfRange(day: day, daysInMonth: length) }
        // Four digits make a year of at most 9999: every check of `init(year:month:day:)` is made.
        self.init(uncheckedYear: year, month: month, day: day)
    }

    /// The date `yyyy-MM-dd` spells in UTF-8, or `nil` exactly where `init(utf8:)` throws, without saying why:
    /// small enough to be inlined where a request's dates are read (a date per record; the direct JSON decoders
    /// read them with it), where the throwing form stayed a call.
    @inlinable @inline(__always)
    public init?(checkedUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard case .success(let (year, month, day)) = Self.fields(of: bytes), year >= 1, month >= 1, month <= 12,
            day >= 1, day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.init(uncheckedYear: year, month: month, day: day)
    }

    /// Year, month and day of ten bytes `yyyy-MM-dd`, unchecked beyond their form.
    ///
    /// The first eight bytes (`yyyy-MM-`) are checked and split as one word and the last two as another ("SWAR"):
    /// a request carries a date per record, and a loop over the bytes with a decision per byte was most of reading
    /// a record directly (`JSONCursor`).
    @inlinable @inline(__always)
    static func fields(
        of bytes: UnsafeBufferPointer<UInt8>
    ) -> Result<(year: Int, month: Int, day: Int), LocalDateParseError> {
        guard bytes.count == 10, let start = bytes.baseAddress else { return .failure(.notISODate) }
        let head = UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self))
        let tail = UInt64(UInt16(littleEndian: UnsafeRawPointer(start + 8).loadUnaligned(as: UInt16.self)))
        // Byte 4 and byte 7 (the most significant of the word) are the dashes; bytes 0-3 and 5-6 are digits.
        let dashes: UInt64 = 0x2D00_002D_0000_0000
        let dashMask: UInt64 = 0xFF00_00FF_0000_0000
        guard head & dashMask == dashes, isDigits(head, mask: ~dashMask), isDigits(tail, mask: 0xFFFF) else {
            return .failure(.notISODate)
        }
        let values = head & 0x0F0F_0F0F_0F0F_0F0F
        func digit(_ index: UInt64) -> Int { Int((values >> (index * 8)) & 0xFF) }
        let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
        let month = digit(5) * 10 + digit(6)
        let day = Int(tail & 0x0F) * 10 + Int((tail >> 8) & 0x0F)
        return .success((year, month, day))
    }

    /// Whether every byte of `word` that `mask` selects is an ASCII digit: its high nibble 3, and its low nibble
    /// at most 9 (adding 6 to it does not carry into the high nibble).
    @inlinable @inline(__always)
    static func isDigits(_ word: UInt64, mask: UInt64) -> Bool {
        let high = word & 0xF0F0_F0F0_F0F0_F0F0 & mask
        let low = word & 0x0F0F_0F0F_0F0F_0F0F & mask
        return high == 0x3030_3030_3030_3030 & mask
            && (low &+ (0x0606_0606_0606_0606 & mask)) & 0xF0F0_F0F0_F0F0_F0F0 == 0
    }

    public init?(_ description: String) {
        guard let date = try? LocalDate(parsing: description) else { return nil }
        self = date
    }

    /// `yyyy-MM-dd`.
    public var description: String {
        // Ten ASCII bytes fit a small string: no heap allocation, once per date in every response.
        String(unsafeUninitializedCapacity: Self.textLength) { writeText(to: $0.baseAddress!) }
    }

    /// The length of `yyyy-MM-dd`.
    package static let textLength = 10

    /// Writes `yyyy-MM-dd` as UTF-8 at `start` (room for `textLength` bytes) and answers its length: a result writes
    /// dates so, straight into its output.
    @discardableResult @inline(__always)
    package func writeText(to start: UnsafeMutablePointer<UInt8>) -> Int {
        Self.writeDigits(Int(year), count: 4, to: start)
        start[4] = UInt8(ascii: "-")
        Self.writeDigits(Int(month), count: 2, to: start + 5)
        start[7] = UInt8(ascii: "-")
        Self.writeDigits(Int(day), count: 2, to: start + 8)
        return Self.textLength
    }

    /// Writes `value` (0 ≤ value < 10^count) at `start` in exactly `count` decimal digits, zeros in front. Dates
    /// write 4 and 2 digits, times 2 and 3: two digits at a time, unsigned, by constants (a multiplication and a
    /// shift each), where signed divisions per digit were most of writing an instant.
    @inline(__always)
    package static func writeDigits(_ value: Int, count: Int, to start: UnsafeMutablePointer<UInt8>) {
        let value = UInt32(truncatingIfNeeded: value)
        switch count {
        case 2:
            writeDigitPair(value, to: start)
        case 3:
            let hundreds = value / 100
            start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hundreds)
            writeDigitPair(value &- hundreds &* 100, to: start + 1)
        case 4:
            let high = value / 100
            writeDigitPair(high, to: start)
            writeDigitPair(value &- high &* 100, to: start + 2)
        default:
            var remaining = value
            for offset in stride(from: count - 1, through: 0, by: -1) {
                start[offset] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            }
        }
    }

    /// Writes `value` (0...99) as two digits with one store: the tens are `value * 205 >> 11` (exact below 1,029).
    @inline(__always)
    static func writeDigitPair(_ value: UInt32, to start: UnsafeMutablePointer<UInt8>) {
        let tens = (value &* 205) >> 11
        let ones = value &- tens &* 10
        let pair = UInt16(truncatingIfNeeded: tens | ones << 8) | 0x3030
        UnsafeMutableRawPointer(start).storeBytes(of: pair.littleEndian, as: UInt16.self)
    }
}
