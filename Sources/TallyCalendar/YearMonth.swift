/// A calendar month of a year: what the history calendar and the activity calendar page through.
public struct YearMonth: Hashable, Comparable, Sendable {
    /// 1...9999.
    public let year: Int
    /// 1...12.
    public let month: Int

    /// Creates a month, or `nil` when year or month is out of range.
    public init?(year: Int, month: Int) {
        guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
        self.init(uncheckedYear: year, month: month)
    }

    init(uncheckedYear year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    public static func < (lhs: YearMonth, rhs: YearMonth) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }

    /// The 1st of the month.
    public var firstDay: LocalDate { LocalDate(year: year, month: month, day: 1)! }

    /// The last day of the month.
    public var lastDay: LocalDate { LocalDate(year: year, month: month, day: dayCount)! }

    /// 28...31.
    public var dayCount: Int { LocalDate.daysIn(month: month, year: year) }

    /// Every date of the month, ascending.
    public var days: [LocalDate] {
        let first = Int(firstDay.dayNumber)
        return (0..<dayCount).map { LocalDate(dayNumber: first + $0) }
    }

    /// Whether `date` falls in this month.
    public func contains(_ date: LocalDate) -> Bool { Int(date.year) == year && Int(date.month) == month }

    /// The month after this one, or `nil` after 9999-12.
    public var next: YearMonth? {
        month == 12 ? YearMonth(year: year + 1, month: 1) : YearMonth(uncheckedYear: year, month: month + 1)
    }

    /// The month before this one, or `nil` before 0001-01.
    public var previous: YearMonth? {
        month == 1 ? YearMonth(year: year - 1, month: 12) : YearMonth(uncheckedYear: year, month: month - 1)
    }
}

/// Why a `yyyy-MM` text is not a month.
public enum YearMonthParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not `yyyy-MM` (four digits, a hyphen, two digits).
    case notISOMonth
    /// The year is outside 0001–9999 or the month outside 01–12.
    case outOfRange

    public var description: String {
        switch self {
        case .notISOMonth: "expected a month as yyyy-MM"
        case .outOfRange: "month must be 01...12 and year 0001...9999"
        }
    }
}

extension YearMonth: CustomStringConvertible {
    /// Parses exactly `yyyy-MM`.
    public init(parsing text: some StringProtocol) throws(YearMonthParseError) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-") else { throw .notISOMonth }
        var value = [Int]()
        for (index, byte) in bytes.enumerated() where index != 4 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw .notISOMonth }
            value.append(Int(byte - UInt8(ascii: "0")))
        }
        let year = value[0] * 1000 + value[1] * 100 + value[2] * 10 + value[3]
        guard let month = YearMonth(year: year, month: value[4] * 10 + value[5]) else { throw .outOfRange }
        self = month
    }

    /// The length of `yyyy-MM`.
    package static let textLength = 7

    /// Writes `yyyy-MM` as UTF-8 at `start` (room for `textLength` bytes) and answers its length.
    @discardableResult
    package func writeText(to start: UnsafeMutablePointer<UInt8>) -> Int {
        LocalDate.writeDigits(year, count: 4, to: start)
        start[4] = UInt8(ascii: "-")
        LocalDate.writeDigits(month, count: 2, to: start + 5)
        return Self.textLength
    }

    /// `yyyy-MM`.
    public var description: String {
        String(unsafeUninitializedCapacity: Self.textLength) { writeText(to: $0.baseAddress!) }
    }
}
