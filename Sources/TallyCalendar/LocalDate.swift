/// A civil calendar date (proleptic Gregorian) with no time and no zone: the key of a daily record.
///
/// Tally answers "which day is it" in the request's time zone and from then on works with civil dates only,
/// so day arithmetic is exact: adding 7 days is 7 calendar days, whatever DST does to the hours between them.
/// The date is stored as a day number (days since 1970-01-01) plus its components, so comparison and
/// arithmetic are integer operations and reading the year, month or day costs nothing.
public struct LocalDate: Hashable, Comparable, Sendable {
    /// Days since 1970-01-01 (negative before it).
    public let dayNumber: Int32
    /// Four-digit year, 1...9999.
    public let year: Int16
    /// 1...12.
    public let month: UInt8
    /// 1...31.
    public let day: UInt8

    /// The first date Tally accepts: 0001-01-01.
    public static let earliest = LocalDate(uncheckedYear: 1, month: 1, day: 1)
    /// The last date Tally accepts: 9999-12-31.
    public static let latest = LocalDate(uncheckedYear: 9999, month: 12, day: 31)

    /// Creates a date from its components, or `nil` when they name no date (2025-02-30, month 13, year 0).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.init(uncheckedYear: year, month: month, day: day)
    }

    /// Creates the date `dayNumber` days after 1970-01-01, clamped to `earliest...latest`.
    public init(dayNumber: Int) {
        let clamped = min(max(dayNumber, Self.earliestDayNumber), Self.latestDayNumber)
        let (year, month, day) = Self.civil(fromDayNumber: clamped)
        self.dayNumber = Int32(truncatingIfNeeded: clamped)
        self.year = Int16(truncatingIfNeeded: year)
        self.month = UInt8(truncatingIfNeeded: month)
        self.day = UInt8(truncatingIfNeeded: day)
    }

    /// `earliest.dayNumber` and `latest.dayNumber` as constants: the static dates are built lazily, and reading them
    /// checked their initialization at every conversion (a written instant makes one). `LocalDateTests` holds them
    /// equal.
    static var earliestDayNumber: Int { -719_162 }
    static var latestDayNumber: Int { 2_932_896 }

    /// The date of components the caller has checked (year 1...9999, month 1...12, a day of that month).
    @inlinable @inline(__always)
    init(uncheckedYear year: Int, month: Int, day: Int) {
        self.dayNumber = Int32(truncatingIfNeeded: Self.dayNumber(year: year, month: month, day: day))
        self.year = Int16(truncatingIfNeeded: year)
        self.month = UInt8(truncatingIfNeeded: month)
        self.day = UInt8(truncatingIfNeeded: day)
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    public static func == (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber == rhs.dayNumber }

    public func hash(into hasher: inout Hasher) { hasher.combine(dayNumber) }

    /// The day of the week.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (rawValue 5 with Sunday = 1).
        let index = (Int(dayNumber) + 4) % 7
        return Weekday(rawValue: (index < 0 ? index + 7 : index) + 1)!
    }

    /// The month this date falls in.
    public var yearMonth: YearMonth { YearMonth(uncheckedYear: Int(year), month: Int(month)) }

    /// This date moved by `days` calendar days (clamped to the supported range).
    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: Int(dayNumber) + days) }

    /// The number of calendar days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDate) -> Int { Int(other.dayNumber) - Int(dayNumber) }

    /// Number of days in `month` of `year`.
    @inlinable @inline(__always)
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Gregorian leap-year rule.
    @inlinable @inline(__always)
    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    // Day-number conversion works in 400-year eras that start on March 1st, so the leap day is the last day
    // of each shifted year and month lengths follow a fixed 153-day pattern per five months.
    ///
    /// Every date Tally holds has a year of at least 1, so the shifted year is never negative and the divisions are
    /// unsigned (cheaper than signed ones by a constant: a date is read per record of a request).
    @inlinable @inline(__always)
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = UInt(month <= 2 ? year - 1 : year)
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = UInt(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + UInt(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return Int(era * 146_097 + dayOfEra) - 719_468
    }

    /// Year, month and day of a day number of the supported dates (0001-01-01...9999-12-31).
    static func civil(fromDayNumber number: Int) -> (year: Int, month: Int, day: Int) {
        // Neri and Schneider's "Euclidean affine functions" (2021): the day is shifted by 82 eras of 400 years
        // (so that 0001-01-01 is positive) to days since a March 1st, and every division after is by a constant on
        // unsigned 32-bit values (a multiplication) or by a power of two (a shift). The era formula this replaced
        // divided signed values five times; a result writes a date per instant, and that was a third of writing
        // them. `LocalDateTests.everySupportedDayConvertsBothWays` checks every supported day against a count by
        // hand.
        let shifted = UInt32(truncatingIfNeeded: number &+ Self.eraShiftDays &+ 719_468)
        let quarterDays = 4 &* shifted &+ 3
        let century = quarterDays / 146_097
        let dayOfCentury = quarterDays % 146_097 / 4
        // (4 * dayOfCentury + 3) / 1461 as one 64-bit product: the high word is the year of the century, the
        // low word divided back gives the day of that (March-based) year.
        let product = UInt64(2_939_745) &* UInt64(4 &* dayOfCentury &+ 3)
        let yearOfCentury = UInt32(truncatingIfNeeded: product >> 32)
        let dayOfYear = UInt32(truncatingIfNeeded: product) / 2_939_745 / 4
        // Months of a March-based year: 3...14 in the high half, the day in the low half.
        let monthAndDay = 2_141 &* dayOfYear &+ 197_913
        let afterDecember = dayOfYear >= 306
        let month = Int(monthAndDay >> 16) - (afterDecember ? 12 : 0)
        let day = Int((monthAndDay & 0xFFFF) / 2_141) + 1
        let year = Int(100 &* century &+ yearOfCentury) - 400 * 82 + (afterDecember ? 1 : 0)
        return (year, month, day)
    }

    /// 82 eras of 400 years, in days: added before converting so that every supported day is positive.
    private static var eraShiftDays: Int { 146_097 * 82 }
}
