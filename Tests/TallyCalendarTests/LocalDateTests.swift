import Testing
@testable import TallyCalendar

@Suite struct LocalDateTests {
    @Test func dayNumbersMatchKnownDates() {
        #expect(LocalDate(year: 1970, month: 1, day: 1)!.dayNumber == 0)
        #expect(LocalDate(year: 2000, month: 3, day: 1)!.dayNumber == 11_017)
        #expect(LocalDate(year: 1969, month: 12, day: 31)!.dayNumber == -1)
        #expect(LocalDate(year: 2024, month: 2, day: 29)!.dayNumber == 19_782)
    }

    /// Every supported day, 0001-01-01...9999-12-31, counted by hand (day by day, month lengths by the leap rule) and
    /// converted both ways: day number to date (the conversion every written instant and every `adding(days:)`
    /// makes) and date to day number (every date read). One `#expect` at the end: per day it would be most of the
    /// suite's time.
    @Test func everySupportedDayConvertsBothWays() {
        var expected = (year: 1, month: 1, day: 1)
        var firstWrong: (dayNumber: Int, date: LocalDate)?
        for number in Int(LocalDate.earliest.dayNumber)...Int(LocalDate.latest.dayNumber) {
            let date = LocalDate(dayNumber: number)
            let back = LocalDate(year: expected.year, month: expected.month, day: expected.day)
            if firstWrong == nil,
                Int(date.year) != expected.year || Int(date.month) != expected.month || Int(date.day) != expected.day
                    || Int(date.dayNumber) != number || back.map({ Int($0.dayNumber) }) != number
            {
                firstWrong = (number, date)
            }
            expected.day += 1
            if expected.day > LocalDate.daysIn(month: expected.month, year: expected.year) {
                expected.day = 1
                expected.month += 1
                if expected.month > 12 { expected = (expected.year + 1, 1, 1) }
            }
        }
        #expect(firstWrong == nil, "day number \(firstWrong?.dayNumber ?? 0) is \(firstWrong?.date.description ?? "")")
        #expect(expected == (10_000, 1, 1))
        #expect(Int(LocalDate.earliest.dayNumber) == LocalDate.earliestDayNumber)
        #expect(Int(LocalDate.latest.dayNumber) == LocalDate.latestDayNumber)
        // Past either end, the conversion clamps.
        #expect(LocalDate(dayNumber: Int(LocalDate.earliest.dayNumber) - 1) == .earliest)
        #expect(LocalDate(dayNumber: Int(LocalDate.latest.dayNumber) + 400) == .latest)
    }

    @Test func weekdays() {
        #expect(LocalDate(year: 1970, month: 1, day: 1)!.weekday == .thursday)
        #expect(LocalDate(year: 2026, month: 2, day: 1)!.weekday == .sunday)
        #expect(LocalDate(year: 2024, month: 2, day: 29)!.weekday == .thursday)
        #expect(LocalDate(year: 1969, month: 12, day: 28)!.weekday == .sunday)
    }

    @Test func leapYears() {
        #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2025, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 1900, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2000, month: 2, day: 29) != nil)
    }

    @Test(arguments: [
        ("2025-02-30", LocalDateParseError.dayOutOfRange(day: 30, daysInMonth: 28)),
        ("2025-13-01", .monthOutOfRange(13)),
        ("2025-00-10", .monthOutOfRange(0)),
        ("0000-01-01", .yearOutOfRange),
        ("2025-1-01", .notISODate),
        ("2025-01-01T00:00", .notISODate),
        ("２０２５-01-01", .notISODate),
        ("", .notISODate),
        ("2025/01/01", .notISODate),
        ("2025-04-31", .dayOutOfRange(day: 31, daysInMonth: 30)),
    ])
    func refusesImpossibleDates(text: String, error: LocalDateParseError) {
        #expect(throws: error) { try LocalDate(parsing: text) }
        // The byte form (the JSON fast path's) refuses alike.
        #expect(throws: error) { try Array(text.utf8).withUnsafeBufferPointer { try LocalDate(utf8: $0) } }
    }

    @Test(arguments: ["2024-02-29", "0001-01-01", "9999-12-31", "2026-11-23"])
    func bytesParseAsTextDoes(_ text: String) throws {
        let fromBytes = try Array(text.utf8).withUnsafeBufferPointer { try LocalDate(utf8: $0) }
        #expect(fromBytes == (try LocalDate(parsing: text)))
        #expect(fromBytes.description == text)
    }

    /// `init?(checkedUTF8:)` (the direct JSON decoders' read, inlined) and `init(utf8:)` read exactly the texts that
    /// are four, two and two ASCII digits around dashes naming a date `init?(year:month:day:)` accepts, to that date:
    /// every day of the years around a leap year and of the first and last years, and every text one byte away from
    /// some of them (digits, separators, the bytes beside `0` and `9`).
    @Test func theInlinedReadAgreesWithTheThrowingOne() {
        /// The date the text spells, found without the parsers.
        func oracle(_ text: [UInt8]) -> LocalDate? {
            let digits = [0, 1, 2, 3, 5, 6, 8, 9]
            guard text.count == 10, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
                digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[$0]) })
            else { return nil }
            func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + Int(text[$1] - UInt8(ascii: "0")) } }
            return LocalDate(year: number(0..<4), month: number(5..<7), day: number(8..<10))
        }
        func agree(_ text: [UInt8]) -> Bool {
            text.withUnsafeBufferPointer { bytes in
                LocalDate(checkedUTF8: bytes) == oracle(text) && (try? LocalDate(utf8: bytes)) == oracle(text)
            }
        }
        var days: [LocalDate] = []
        for year in [1, 1899, 1900, 2000, 2023, 2024, 9999] {
            var day = LocalDate(year: year, month: 1, day: 1)!
            while day.year == year {
                days.append(day)
                if day == .latest { break }
                day = day.adding(days: 1)
            }
        }
        var disagreements: [String] = []
        for day in days {
            let text = Array(day.description.utf8)
            if !agree(text) { disagreements.append(day.description) }
            guard day.day >= 28 || day.day == 1 else { continue }
            for position in text.indices {
                for byte in Array("0123456789-/:".utf8) + [0x20, 0x00, 0xFF] {
                    var changed = text
                    changed[position] = byte
                    if !agree(changed) { disagreements.append(String(decoding: changed, as: UTF8.self)) }
                }
            }
        }
        for short in ["2024-02-2", "2024-02-290", "", "2024-2-29"] where !agree(Array(short.utf8)) {
            disagreements.append(short)
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(days.count > 2_000)
    }

    @Test func parsesAndPrints() throws {
        let date = try LocalDate(parsing: "2024-02-29")
        #expect(date.description == "2024-02-29")
        #expect(LocalDate(year: 7, month: 3, day: 9)!.description == "0007-03-09")
        #expect(date.adding(days: 1).description == "2024-03-01")
        #expect(date.days(to: try LocalDate(parsing: "2025-02-28")) == 365)
    }

    @Test func yearMonths() throws {
        let february = try YearMonth(parsing: "2024-02")
        #expect(february.dayCount == 29)
        #expect(february.days.count == 29)
        #expect(february.next?.description == "2024-03")
        #expect(YearMonth(year: 2025, month: 1)!.previous?.description == "2024-12")
        #expect(throws: YearMonthParseError.outOfRange) { try YearMonth(parsing: "2024-13") }
        #expect(throws: YearMonthParseError.notISOMonth) { try YearMonth(parsing: "2024-1") }
    }
}
