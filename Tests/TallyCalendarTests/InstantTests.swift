import Foundation
import TallyCalendar
import Testing

/// Instants are read exactly: whatever the year and however many fraction digits, the instant's second is the
/// text's own (a fraction never rounds it up), the nanoseconds are the fraction's first nine digits, and the local
/// date, hour and minute in any zone follow from those integers alone. The oracle here works on the text's integer
/// fields with a day count of its own.
@Suite struct InstantTests {
    @Test func nanosecondsCarryIntoSecondsAndOrderIsBySecondThenNanosecond() {
        #expect(
            Instant(secondsSince1970: 10, nanoseconds: 1_500_000_000)
                == Instant(secondsSince1970: 11, nanoseconds: 500_000_000))
        #expect(
            Instant(secondsSince1970: 0, nanoseconds: -1) == Instant(secondsSince1970: -1, nanoseconds: 999_999_999))
        #expect(Instant(secondsSince1970: -1, nanoseconds: 999_999_999) < Instant(secondsSince1970: 0))
        #expect(Instant(secondsSince1970: 5, nanoseconds: 1) > Instant(secondsSince1970: 5))
        let instant = Instant(secondsSince1970: 100, nanoseconds: 250_000_000)
        #expect(instant.advanced(by: .milliseconds(800)) == Instant(secondsSince1970: 101, nanoseconds: 50_000_000))
        #expect(instant.advanced(by: .milliseconds(-300)) == Instant(secondsSince1970: 99, nanoseconds: 950_000_000))
        #expect(instant.advanced(by: .seconds(7)).duration(since: instant) == .seconds(7))
        #expect(Instant(secondsSince1970: -1, nanoseconds: 999_000_000).millisecondsSince1970 == -1)
        #expect(Instant(Date(timeIntervalSince1970: -0.5)) == Instant(secondsSince1970: -1, nanoseconds: 500_000_000))
        #expect(Instant(secondsSince1970: 1_772_953_200).dateOfSecond == Date(timeIntervalSince1970: 1_772_953_200))
    }

    /// The cases of the issue: a fraction just short of a second, in years 1 and 9999 and with a nanosecond clock's
    /// nine digits today, stays on its own date (as a `Double` of seconds, each rounded into the next day).
    @Test(arguments: [
        ("0001-02-04T23:59:59.999999Z", "0001-02-04", "0001-02-04T23:59:59.999Z"),
        ("9999-02-04T23:59:59.99999Z", "9999-02-04", "9999-02-04T23:59:59.999Z"),
        ("2026-02-04T23:59:59.999999999Z", "2026-02-04", "2026-02-04T23:59:59.999Z"),
        ("2026-02-04T23:59:59.9999999999999Z", "2026-02-04", "2026-02-04T23:59:59.999Z"),
        ("2026-02-04T23:59:59.0009Z", "2026-02-04", "2026-02-04T23:59:59Z"),
        ("1969-12-31T23:59:59.999999999Z", "1969-12-31", "1969-12-31T23:59:59.999Z"),
    ])
    func aFractionJustShortOfASecondStaysInItsSecond(text: String, date: String, written: String) throws {
        let read = try RFC3339.parse(text)
        #expect(LocalDate(at: read.instant, utcOffset: 0).description == date)
        #expect(LocalDate.clockReading(at: read.instant, utcOffset: 0).secondOfDay == 86_399)
        #expect(RFC3339.format(read.instant, offset: 0) == written)
    }

    /// Random texts of every century (and the first and last days of the calendar), either side of midnight or at a
    /// random time, with fractions of 1 to 12 digits and offsets of whole minutes: the instant is the oracle's to the
    /// nanosecond, the clock at the text's own offset reads the text's date and time, UTC's clock reads the oracle's,
    /// and the text is written back with its fraction truncated to milliseconds.
    @Test func everyTextIsReadToItsOwnDigits() throws {
        var generator = Xorshift(seed: 0x1A57_A417)
        var checked = 0
        for round in 0..<40_000 {
            let year: Int
            switch round % 10 {
            case 0: year = 1
            case 1: year = 9999
            default: year = (round / 10 % 100) * 100 + Int.random(in: 0..<100, using: &generator)
            }
            guard year >= 1 else { continue }
            let month = round % 10 <= 1 ? (round % 20 < 10 ? 1 : 12) : Int.random(in: 1...12, using: &generator)
            let daysInMonth = Self.daysInMonth(year, month)
            let day = round % 10 <= 1 ? (month == 1 ? 1 : 31) : Int.random(in: 1...daysInMonth, using: &generator)
            let (hour, minute, second): (Int, Int, Int)
            switch round % 3 {
            case 0: (hour, minute, second) = (23, 59, 59)
            case 1: (hour, minute, second) = (0, 0, 0)
            default:
                (hour, minute, second) = (
                    Int.random(in: 0...23, using: &generator), Int.random(in: 0...59, using: &generator),
                    Int.random(in: 0...59, using: &generator)
                )
            }
            let digits = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                Character(String(Int.random(in: 0...9, using: &generator)))
            }
            let fraction = String(digits)
            let offsetMinutes = round % 4 == 0 ? 0 : Int.random(in: -18 * 60...18 * 60, using: &generator)
            let offsetText =
                offsetMinutes == 0
                ? "Z"
                : String(
                    format: "%@%02d:%02d", offsetMinutes < 0 ? "-" : "+", abs(offsetMinutes) / 60,
                    abs(offsetMinutes) % 60)
            let dateText = String(format: "%04d-%02d-%02d", year, month, day)
            let text = dateText + String(format: "T%02d:%02d:%02d.", hour, minute, second) + fraction + offsetText

            // The oracle: the days since 1970 by a count of its own, the seconds from the fields, the offset
            // taken away; the nanoseconds are the first nine digits.
            let localSeconds = Self.daysSince1970(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
            let seconds = Int64(localSeconds - offsetMinutes * 60)
            let nanoseconds = Int64(String(digits.prefix(9)).padding(toLength: 9, withPad: "0", startingAt: 0))!
            let expected = Instant(secondsSince1970: seconds, nanoseconds: nanoseconds)
            guard RFC3339.supportedInstants.contains(expected) else {
                #expect(throws: InstantParseError.outsideSupportedInstants) { try RFC3339.parse(text) }
                continue
            }
            let read = try RFC3339.parse(text)
            #expect(read.instant == expected, "\(text)")
            #expect(read.offset == offsetMinutes * 60, "\(text)")
            let own = LocalDate.clockReading(at: read.instant, utcOffset: read.offset)
            #expect(LocalDate(dayNumber: own.dayNumber).description == dateText, "\(text)")
            #expect(own.secondOfDay == hour * 3600 + minute * 60 + second, "\(text)")
            let utcSeconds = localSeconds - offsetMinutes * 60
            let utc = LocalDate.clockReading(at: read.instant, utcOffset: 0)
            #expect(utc.dayNumber == Self.floorDivision(utcSeconds, 86_400), "\(text)")
            #expect(utc.secondOfDay / 60 == (utcSeconds - Self.floorDivision(utcSeconds, 86_400) * 86_400) / 60)
            // Written back at its own offset (its local time is the text's, within the years): the fraction truncated
            // to three digits, none when they are zeros.
            let milliseconds = String(digits.prefix(3)).padding(toLength: 3, withPad: "0", startingAt: 0)
            let head = dateText + String(format: "T%02d:%02d:%02d", hour, minute, second)
            let expectedText = head + (milliseconds == "000" ? "" : "." + milliseconds) + offsetText
            #expect(RFC3339.format(read.instant, offset: read.offset) == expectedText, "\(text)")
            checked += 1
        }
        #expect(checked > 30_000)
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days from 1970-01-01 to the date, counted year by year and month by month from 0001-01-01 (no formula
    /// shared with the calendar's own).
    static func daysSince1970(_ year: Int, _ month: Int, _ day: Int) -> Int {
        RFC3339Oracle.daysBeforeYear[year - 1] + (1..<month).reduce(0) { $0 + daysInMonth(year, $1) } + day - 1
            - RFC3339Oracle.daysBeforeYear[1969]
    }

    static func floorDivision(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}

/// The oracle's table: days from 0001-01-01 to the first day of each year 1...10000 (index `year - 1`).
enum RFC3339Oracle {
    static let daysBeforeYear: [Int] = {
        var days = [0]
        for year in 1...9999 { days.append(days[year - 1] + (InstantTests.daysInMonth(year, 2) == 29 ? 366 : 365)) }
        return days
    }()
}
