import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct ZoneCalendarTests {
    func calendar(_ identifier: String) throws -> ZoneCalendar {
        try #require(ZoneCalendar(identifier: identifier))
    }

    @Test func unknownZoneIsRefused() {
        #expect(ZoneCalendar(identifier: "Mars/Olympus_Mons") == nil)
        #expect(ZoneCalendar(utcOffsetMinutes: 19 * 60) == nil)
        #expect(ZoneCalendar(utcOffsetMinutes: -300) != nil)
    }

    @Test(arguments: [
        ("America/New_York", "2026-03-08", 23),
        ("America/New_York", "2026-11-01", 25),
        ("America/New_York", "2026-03-09", 24),
        ("Europe/Berlin", "2026-03-29", 23),
        ("Europe/Berlin", "2026-10-25", 25),
        ("Asia/Tokyo", "2026-03-08", 24),
        ("Australia/Sydney", "2026-04-05", 25),
        ("Australia/Sydney", "2026-10-04", 23),
    ])
    func hourBucketsFollowDST(zone: String, date: String, count: Int) throws {
        let hours = try calendar(zone).hours(of: LocalDate(parsing: date))
        #expect(hours.count == count)
        #expect(hours.first?.hour == 0)
        #expect(hours.last?.hour == 23)
    }

    @Test func springForwardSkipsTwoAM() throws {
        let hours = try calendar("America/New_York").hours(of: LocalDate(parsing: "2026-03-08"))
        #expect(hours.map(\.hour) == [0, 1] + Array(3...23))
        #expect(hours[1].label == "2026-03-08T01:00:00-05:00")
        #expect(hours[2].label == "2026-03-08T03:00:00-04:00")
    }

    @Test func fallBackRepeatsOneAM() throws {
        let hours = try calendar("America/New_York").hours(of: LocalDate(parsing: "2026-11-01"))
        #expect(hours.map(\.hour) == [0, 1, 1] + Array(2...23))
        #expect(hours[1].label == "2026-11-01T01:00:00-04:00")
        #expect(hours[2].label == "2026-11-01T01:00:00-05:00")
    }

    @Test func lateEveningIsTomorrowInUTC() throws {
        // 23:30 in Los Angeles on 2026-06-14 is 06:30 UTC on 2026-06-15.
        let instant = try RFC3339.parse("2026-06-15T06:30:00Z").instant
        #expect(try calendar("America/Los_Angeles").localDate(of: instant).description == "2026-06-14")
        #expect(try calendar("UTC").localDate(of: instant).description == "2026-06-15")
        let reference = ReferenceDay(now: instant, in: try calendar("America/Los_Angeles"))
        #expect(reference.today.description == "2026-06-14")
    }

    @Test func startOfDayWhereMidnightDoesNotExist() throws {
        // Cuba springs forward at midnight: 2026-03-08 starts at 01:00 local (05:00 UTC).
        let havana = try calendar("America/Havana")
        let date = try LocalDate(parsing: "2026-03-08")
        let start = havana.startOfDay(date)
        #expect(havana.localDate(of: start) == date)
        #expect(havana.localDate(of: start.advanced(by: .seconds(-1))) == date.adding(days: -1))
        #expect(havana.hours(of: date).count == 23)
    }

    /// Samoa skipped 2011-12-30 (−10:00 to +14:00 at the end of the 29th): the date's day is empty, and the days
    /// around it meet where the 31st began.
    @Test func skippedDateHasAnEmptyDay() throws {
        let apia = try calendar("Pacific/Apia")
        let skipped = try LocalDate(parsing: "2011-12-30")
        let day = apia.interval(of: skipped)
        #expect(day.isEmpty)
        #expect(day.lowerBound == (try RFC3339.parse("2011-12-30T10:00:00Z").instant))
        #expect(apia.hours(of: skipped).isEmpty)
        #expect(apia.interval(of: skipped.adding(days: -1)).upperBound == day.lowerBound)
        #expect(apia.hours(of: skipped.adding(days: -1)).count == 24)
        #expect(apia.hours(of: skipped.adding(days: 1)).count == 24)
        #expect(apia.startOfDay(skipped.adding(days: 1)) == day.upperBound)
    }

    /// Troll moves its clock by two hours (UTC+0 in winter, UTC+2 in summer); Lord Howe by thirty minutes.
    @Test(arguments: [
        ("Antarctica/Troll", "2026-03-29", 22, 3600.0), ("Antarctica/Troll", "2026-10-25", 26, 3600),
        ("Australia/Lord_Howe", "2026-10-04", 24, 1800), ("Australia/Lord_Howe", "2026-04-05", 25, 1800),
    ])
    func twoHourAndHalfHourShifts(zone: String, date: String, count: Int, lastBucket: Double) throws {
        let hours = try calendar(zone).hours(of: LocalDate(parsing: date))
        #expect(hours.count == count)
        #expect(hours.last.map { $0.end.duration(since: $0.start) / .seconds(1) } == lastBucket)
        #expect(zip(hours, hours.dropFirst()).allSatisfy { $0.end == $1.start })
    }

    /// An instant near either end of the calendar may fall on a date Tally does not support in some zone.
    @Test func supportedLocalDatesAtTheEnds() throws {
        let lastUTCHour = try RFC3339.parse("9999-12-31T23:00:00Z").instant
        #expect(try calendar("UTC").supportedLocalDate(of: lastUTCHour) == LocalDate.latest)
        #expect(try calendar("Pacific/Kiritimati").supportedLocalDate(of: lastUTCHour) == nil)
        let firstUTCHour = try RFC3339.parse("0001-01-01T01:00:00Z").instant
        #expect(try calendar("America/New_York").supportedLocalDate(of: firstUTCHour) == nil)
        #expect(try calendar("Asia/Tokyo").supportedLocalDate(of: firstUTCHour) == LocalDate.earliest)
        #expect(ZoneCalendar.mayFallOutsideSupportedDates(lastUTCHour))
        #expect(!ZoneCalendar.mayFallOutsideSupportedDates(try RFC3339.parse("2026-01-01T00:00:00Z").instant))
    }

    /// 9999-12-31 ends where 10000-01-01 would begin, in the zone's offset, not after an assumed 24 hours.
    @Test func lastDateEndsAtTheZonesMidnight() throws {
        let kiritimati = try calendar("Pacific/Kiritimati")
        let day = kiritimati.interval(of: .latest)
        #expect(day.upperBound == (try RFC3339.parse("9999-12-31T10:00:00Z").instant))
        #expect(kiritimati.hours(of: .latest).count == 24)
    }

    @Test func fixedOffsetDays() throws {
        let minusFive = try #require(ZoneCalendar(utcOffsetMinutes: -300))
        let instant = try RFC3339.parse("2026-03-08T04:59:59Z").instant
        #expect(minusFive.localDate(of: instant).description == "2026-03-07")
        #expect(minusFive.hours(of: try LocalDate(parsing: "2026-03-08")).count == 24)
    }

    @Test func halfHourZone() throws {
        let kolkata = try calendar("Asia/Kolkata")
        let hours = kolkata.hours(of: try LocalDate(parsing: "2026-01-01"))
        #expect(hours.count == 24)
        #expect(hours[0].label == "2026-01-01T00:00:00+05:30")
    }

    /// The arithmetic pre-filter never rules out an instant that falls on the date, in the zones with the largest
    /// offsets either way, a half-hour and a 45-minute zone, and across DST changes and a dateline jump.
    @Test(arguments: [
        ("Pacific/Kiritimati", "2026-03-08"), ("Pacific/Pago_Pago", "2026-03-08"), ("Etc/GMT+12", "2026-06-30"),
        ("America/St_Johns", "2026-03-08"), ("Asia/Kathmandu", "2026-01-01"), ("Europe/Berlin", "2026-10-25"),
        ("America/New_York", "2026-03-08"), ("Pacific/Apia", "2011-12-30"), ("Pacific/Apia", "2011-12-29"),
    ])
    func arithmeticPrefilterKeepsEveryInstantOfTheDate(zone: String, date: String) throws {
        let calendar = try calendar(zone)
        let day = try LocalDate(parsing: date)
        let midnightAsUTC = Double(Int(day.dayNumber) * 86_400)
        var onTheDay = 0
        // Every 5 minutes from two days before to two days after the date's midnight read as UTC.
        for step in stride(from: -2 * 86_400, through: 3 * 86_400, by: 300) {
            let instant = Instant(secondsSince1970: Int64(midnightAsUTC) + Int64(step))
            guard calendar.localDate(of: instant) == day else { continue }
            onTheDay += 1
            #expect(ZoneCalendar.instant(instant, mayFallOn: day), "\(instant) is on \(date) in \(zone)")
        }
        // A date the zone skipped (Apia went from 29 to 31 December 2011) has no instants at all.
        #expect(onTheDay > 0 || (zone == "Pacific/Apia" && date == "2011-12-30"))
        let farBefore = Instant(secondsSince1970: Int64(midnightAsUTC) - 19 * 3600)
        let farAfter = Instant(secondsSince1970: Int64(midnightAsUTC) + 86_400 + 18 * 3600)
        #expect(!ZoneCalendar.instant(farBefore, mayFallOn: day))
        #expect(!ZoneCalendar.instant(farAfter, mayFallOn: day))
    }
}
