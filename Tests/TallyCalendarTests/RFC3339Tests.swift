import Foundation
import Testing
import TallyCalendar

@Suite struct RFC3339Tests {
    @Test func parsesOffsetsAndFractions() throws {
        let utc = try RFC3339.parse("2026-03-08T07:00:00Z")
        #expect(utc.instant == Instant(secondsSince1970: 1_772_953_200))
        #expect(utc.offset == 0)
        let newYork = try RFC3339.parse("2026-03-08T03:00:00-04:00")
        #expect(newYork.instant == utc.instant)
        #expect(newYork.offset == -14_400)
        let fraction = try RFC3339.parse("2026-03-08T07:00:00.250+00:00")
        #expect(fraction.instant == Instant(secondsSince1970: 1_772_953_200, nanoseconds: 250_000_000))
        let lowercase = try RFC3339.parse("2026-03-08t07:00:00z")
        #expect(lowercase.instant == utc.instant)
    }

    @Test(arguments: [
        ("2026-03-08T07:00:00", InstantParseError.missingOffset),
        ("2026-03-08T24:00:00Z", .timeOutOfRange),
        ("2026-03-08T07:61:00Z", .timeOutOfRange),
        ("2026-02-30T07:00:00Z", .invalidDate(.dayOutOfRange(day: 30, daysInMonth: 28))),
        ("2026-03-08T07:00:00+0100", .notRFC3339),
        ("2026-03-08T07:00:00.Z", .notRFC3339),
        ("2026-03-08", .notRFC3339),
        ("2026-03-08T07:00:00Zjunk", .notRFC3339),
        ("yesterday", .notRFC3339),
        // Year 0 in UTC, year 10000 in UTC: no four-digit RFC 3339 text in UTC could write them back.
        ("0001-01-01T00:00:00+00:01", .outsideSupportedInstants),
        ("9999-12-31T23:59:59.999-23:59", .outsideSupportedInstants),
    ])
    func refusesMalformedInstants(text: String, error: InstantParseError) {
        #expect(throws: error) { try RFC3339.parse(text) }
        #expect(throws: error) { try Array(text.utf8).withUnsafeBufferPointer { try RFC3339.parse(utf8: $0) } }
    }

    /// The byte form (the JSON fast path's) reads exactly what the text form reads, bit for bit.
    @Test(arguments: [
        "2026-03-08T07:00:00Z", "2026-03-08T12:45:00+05:45", "2026-03-08T01:15:00-05:45", "2026-03-08 07:00:00z",
        "2026-03-08T07:00:00.123456789+14:00", "2016-12-31T23:59:60Z", "0001-01-01T23:59:00+23:59",
        "9999-12-31T23:59:59.999Z", "2026-03-08T07:00:00.5Z",
    ])
    func bytesParseAsTextDoes(_ text: String) throws {
        let fromText = try RFC3339.parse(text)
        let fromBytes = try Array(text.utf8).withUnsafeBufferPointer { try RFC3339.parse(utf8: $0) }
        #expect(fromBytes.instant == fromText.instant)
        #expect(fromBytes.offset == fromText.offset)
        // A substring goes through the same bytes.
        let padded = "[" + text + "]"
        let inner = padded.dropFirst().dropLast()
        #expect(try RFC3339.parse(inner).instant == fromText.instant)
    }

    @Test func offsetsOfQuarterHoursAndLeapSeconds() throws {
        let kathmandu = try RFC3339.parse("2026-03-08T12:45:00+05:45")
        #expect(kathmandu.offset == 20_700)
        #expect(kathmandu.instant == (try RFC3339.parse("2026-03-08T07:00:00Z")).instant)
        // A leap second reads as the first second of the next minute.
        let leap = try RFC3339.parse("2016-12-31T23:59:60Z")
        #expect(leap.instant == (try RFC3339.parse("2017-01-01T00:00:00Z")).instant)
    }

    @Test func formatsLocalTime() {
        let instant = Instant(secondsSince1970: 1_772_953_200)
        #expect(RFC3339.format(instant, offset: 0) == "2026-03-08T07:00:00Z")
        #expect(RFC3339.format(instant, offset: -14_400) == "2026-03-08T03:00:00-04:00")
        #expect(RFC3339.format(instant, offset: 19_800) == "2026-03-08T12:30:00+05:30")
        #expect(RFC3339.format(instant.advanced(by: .milliseconds(500)), offset: 0) == "2026-03-08T07:00:00.500Z")
        #expect(
            RFC3339.format(Instant(secondsSince1970: -1, nanoseconds: 500_000_000), offset: 0)
                == "1969-12-31T23:59:59.500Z")
        // Milliseconds are truncated, never rounded: a nanosecond short of a second stays in its second.
        #expect(
            RFC3339.format(Instant(secondsSince1970: 1_772_953_200, nanoseconds: 999_999_999), offset: 0)
                == "2026-03-08T07:00:00.999Z")
    }

    /// An offset with seconds has no RFC 3339 form: `+03:25` would name a moment 44 s away, so such instants are
    /// written in UTC, and the text always reads back as the same instant.
    @Test func offsetsWithSecondsAreWrittenInUTC() throws {
        // Tehran's local mean time, +03:25:44: local midnight of 1916-01-01 is 1915-12-31T20:34:16Z.
        let tehranMidnight = try RFC3339.parse("1915-12-31T20:34:16Z").instant
        #expect(RFC3339.format(tehranMidnight, offset: 12_344) == "1915-12-31T20:34:16Z")
        // Dublin's mean time, -00:25:21.
        let dublin = try RFC3339.parse("1900-01-01T00:25:21Z").instant
        #expect(RFC3339.format(dublin, offset: -1_521) == "1900-01-01T00:25:21Z")
        // Whole minutes keep the local form, however unusual (Kathmandu's +05:45, Lord Howe's +10:30).
        #expect(RFC3339.format(tehranMidnight, offset: 20_700).hasSuffix("+05:45"))
        for offset in [12_344, -1_521, 37_800, -50_400, 3_599] {
            let text = RFC3339.format(tehranMidnight, offset: offset)
            #expect(try RFC3339.parse(text).instant == tehranMidnight, "\(text)")
        }
    }

    /// Where the local time would leave the four-digit years, the instant is written in UTC.
    @Test func localTimesBeyondTheYearsAreWrittenInUTC() throws {
        let lastInstant = try RFC3339.parse("9999-12-31T23:00:00Z").instant
        #expect(RFC3339.format(lastInstant, offset: 3_600 * 14) == "9999-12-31T23:00:00Z")
        let firstInstant = try RFC3339.parse("0001-01-01T02:00:00Z").instant
        #expect(RFC3339.format(firstInstant, offset: -3_600 * 5) == "0001-01-01T02:00:00Z")
        #expect(RFC3339.format(firstInstant, offset: 3_600) == "0001-01-01T03:00:00+01:00")
    }
    /// A text with milliseconds is written back as it was read: the double nearest to `.580` may lie a hair below
    /// it, and rounding down alone wrote `.579` for one text in 150 of the years 2000-2030.
    @Test func textsWithMillisecondsAreEchoedUnchanged() throws {
        var generator = Xorshift(seed: 0x0580)
        for _ in 0..<20_000 {
            let day = Int.random(
                in: Int(LocalDate.earliest.dayNumber)...Int(LocalDate.latest.dayNumber), using: &generator)
            let second = Int.random(in: 0..<86_400, using: &generator)
            let offsetMinutes = Int.random(in: -14 * 60...14 * 60, using: &generator)
            let text =
                LocalDate(dayNumber: day).description
                + String(
                    format: "T%02d:%02d:%02d.%03d", second / 3600, second / 60 % 60, second % 60,
                    Int.random(in: 0..<1000, using: &generator))
                + (offsetMinutes == 0
                    ? "Z"
                    : String(
                        format: "%@%02d:%02d", offsetMinutes < 0 ? "-" : "+", abs(offsetMinutes) / 60,
                        abs(offsetMinutes) % 60))
            guard let read = try? RFC3339.parse(text) else { continue }  // beyond the supported instants
            let written = RFC3339.format(read.instant, offset: read.offset)
            let expected =
                text.hasSuffix(".000Z") || text.contains(".000+") || text.contains(".000-")
                ? text.replacingOccurrences(of: ".000", with: "") : text
            #expect(written == expected)
        }
    }

    /// Random instants over the whole supported span (milliseconds or none, before and after 1970) at random offsets
    /// of whole minutes: the text reads back as the same instant and offset, and from 1600 on (where Foundation's
    /// Gregorian calendar is proleptic like Tally's) it spells the date and time Foundation gives at that offset.
    @Test func formattedInstantsReadBackAndAgreeWithFoundation() throws {
        var generator = Xorshift(seed: 0x7A11_7A11)
        let span = RFC3339.supportedInstants
        let milliseconds = span.lowerBound.millisecondsSince1970..<span.upperBound.millisecondsSince1970
        for round in 0..<20_000 {
            let whole = round % 2 == 0
            let millisecond = Int64.random(in: milliseconds, using: &generator)
            let kept = whole ? millisecond - (millisecond % 1000 + 1000) % 1000 : millisecond
            let (seconds, subsecond) = kept.quotientAndRemainder(dividingBy: 1000)
            let instant = Instant(secondsSince1970: seconds, nanoseconds: subsecond * 1_000_000)
            guard span.contains(instant) else { continue }
            let offset = Int.random(in: -18 * 60...18 * 60, using: &generator) * 60
            let text = RFC3339.format(instant, offset: offset)
            let read = try RFC3339.parse(text)
            #expect(read.instant == instant, "\(text)")
            let fraction = Int((millisecond % 1000 + 1000) % 1000)
            #expect(
                whole || fraction == 0 ? !text.contains(".") : text.contains(String(format: ".%03d", fraction)),
                "\(text): \(millisecond) ms")
            let local = Double(instant.secondsSince1970) + Double(offset)
            guard local >= -62_135_596_800, local < 253_402_300_800 else {
                #expect(text.hasSuffix("Z") && read.offset == 0, "\(text)")
                continue
            }
            #expect(read.offset == offset, "\(text)")
            guard local >= -11_676_096_000 else { continue }  // 1600-01-01
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: offset)!
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: instant.dateOfSecond)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!)
            #expect(text.hasPrefix(expected), "\(text) at \(offset) s: Foundation says \(expected)")
        }
    }
}

/// A small seeded generator (xorshift64*), so that a failing case comes back on the next run.
struct Xorshift: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed | 1 }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
