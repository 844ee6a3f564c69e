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
        var digits: [Int] = []
        digits.reserveCapacity(8)
        var count = 0
        for (index, byte) in text.utf8.enumerated() {
            count += 1
            guard count <= 10 else { throw .notISODate }
            if index == 4 || index == 7 {
                guard byte == UInt8(ascii: "-") else { throw .notISODate }
            } else {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw .notISODate }
                digits.append(Int(byte - UInt8(ascii: "0")))
            }
        }
        guard count == 10 else { throw .notISODate }
        let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
        let month = digits[4] * 10 + digits[5]
        let day = digits[6] * 10 + digits[7]
        guard year >= 1 else { throw .yearOutOfRange }
        guard (1...12).contains(month) else { throw .monthOutOfRange(month) }
        let length = Self.daysIn(month: month, year: year)
        guard (1...length).contains(day) else { throw .dayOutOfRange(day: day, daysInMonth: length) }
        self.init(year: year, month: month, day: day)!
    }

    public init?(_ description: String) {
        guard let date = try? LocalDate(parsing: description) else { return nil }
        self = date
    }

    /// `yyyy-MM-dd`.
    public var description: String {
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 10)
        Self.writeDigits(Int(year), count: 4, into: &bytes, at: 0)
        Self.writeDigits(Int(month), count: 2, into: &bytes, at: 5)
        Self.writeDigits(Int(day), count: 2, into: &bytes, at: 8)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func writeDigits(_ value: Int, count: Int, into bytes: inout [UInt8], at start: Int) {
        var remaining = value
        for offset in stride(from: count - 1, through: 0, by: -1) {
            bytes[start + offset] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
    }
}
