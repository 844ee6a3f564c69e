import Foundation
import Testing
import TallyCore

@Suite struct RFC3339Tests {
    @Test func parsesOffsetsAndFractions() throws {
        let utc = try RFC3339.parse("2026-03-08T07:00:00Z")
        #expect(utc.instant.timeIntervalSince1970 == 1_772_953_200)
        #expect(utc.offset == 0)
        let newYork = try RFC3339.parse("2026-03-08T03:00:00-04:00")
        #expect(newYork.instant == utc.instant)
        #expect(newYork.offset == -14_400)
        let fraction = try RFC3339.parse("2026-03-08T07:00:00.250+00:00")
        #expect(fraction.instant.timeIntervalSince1970 == 1_772_953_200.25)
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
    ])
    func refusesMalformedInstants(text: String, error: InstantParseError) {
        #expect(throws: error) { try RFC3339.parse(text) }
    }

    @Test func formatsLocalTime() {
        let instant = Date(timeIntervalSince1970: 1_772_953_200)
        #expect(RFC3339.format(instant, offset: 0) == "2026-03-08T07:00:00Z")
        #expect(RFC3339.format(instant, offset: -14_400) == "2026-03-08T03:00:00-04:00")
        #expect(RFC3339.format(instant, offset: 19_800) == "2026-03-08T12:30:00+05:30")
        #expect(RFC3339.format(instant.addingTimeInterval(0.5), offset: 0) == "2026-03-08T07:00:00.500Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -0.5), offset: 0) == "1969-12-31T23:59:59.500Z")
    }
}
