import Foundation
import TallyCalendar

/// Civil time in one time zone: which local day and hour an instant falls in, and where a local day begins.
///
/// Every "which day is it" question of a request is answered here, in the request's zone. Days are found from
/// the zone's UTC offsets, never by assuming 86,400-second days: a spring-forward day has 23 hours, a fall-back
/// day 25, Antarctica/Troll's 22 and 26, Australia/Lord_Howe's 23½ and 24½; in some zones (America/Havana,
/// Asia/Beirut in past years) midnight itself does not exist, and a few skipped a whole date (Pacific/Apia went
/// from 29 to 31 December 2011): such a date is still a calendar date, with a day of no time in it.
///
/// A local day *starts* at the first instant at which the zone's clock shows that date or a later one, and ends
/// where the next day starts. So the days follow one another without gap or overlap, and a skipped date's day is
/// empty. Where a clock was turned back across midnight after the new date had begun (America/St_Johns 00:01 →
/// 23:01 from 1987 to 2010, Alaska in 1867), the minutes in which it showed the earlier date again belong to the
/// later day, which had already begun; `localDate(of:)` still reads the clock for them.
package struct ZoneCalendar: Sendable {
    /// The zone: an IANA zone, or a fixed offset for clients that send one.
    package let timeZone: TimeZone

    package init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// A zone at a fixed offset from UTC, as the activity-calendar clients send it (`utc_offset_minutes`).
    /// - Returns: `nil` outside −18 h...+18 h.
    package init?(utcOffsetMinutes minutes: Int) {
        guard abs(minutes) <= 18 * 60, let zone = TimeZone(secondsFromGMT: minutes * 60) else { return nil }
        self.init(timeZone: zone)
    }

    /// The IANA zone named `identifier` (`Europe/Berlin`), or `nil` when the zone database does not know it.
    package init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.init(timeZone: zone)
    }

    /// Seconds east of UTC in force at `instant`. A zone's offset changes on a whole second, so the instant's
    /// second decides, and Foundation is asked about it exactly (a whole second is exact in a `Date`).
    package func utcOffset(at instant: Instant) -> Int { timeZone.secondsFromGMT(for: instant.dateOfSecond) }

    /// The local civil date at `instant`: the date on the zone's clock.
    /// - Important: an instant whose local date lies outside 0001-01-01...9999-12-31 gets the nearest of the two;
    ///   requests are checked with `supportedLocalDate(of:)` first.
    package func localDate(of instant: Instant) -> LocalDate {
        localDateTime(of: instant).date
    }

    /// The local civil date at `instant`, or `nil` when it lies outside 0001-01-01...9999-12-31 (an instant of
    /// 9999-12-31 in UTC is already 10000-01-01 east of Greenwich). Only instants within 18 hours of either end
    /// of the supported dates cost a zone lookup.
    package func supportedLocalDate(of instant: Instant) -> LocalDate? {
        guard Self.mayFallOutsideSupportedDates(instant) else { return localDate(of: instant) }
        let dayNumber = localDayNumber(of: instant)
        guard dayNumber >= Int(LocalDate.earliest.dayNumber), dayNumber <= Int(LocalDate.latest.dayNumber) else {
            return nil
        }
        return LocalDate(dayNumber: dayNumber)
    }

    /// Whether `instant` lies within 18 hours of 0001-01-01 or of the end of 9999-12-31 (read as UTC), where its
    /// local date may be unsupported in some zone: arithmetic only, to spare every other instant a zone lookup.
    package static func mayFallOutsideSupportedDates(_ instant: Instant) -> Bool {
        let seconds = instant.secondsSince1970
        return seconds < RFC3339.earliestMidnight + maximumOffset
            || seconds >= RFC3339.afterLatestMidnight - maximumOffset
    }

    /// No zone is further than this from UTC, in seconds: fixed offsets are bounded by ±18 h, and the tz database's
    /// largest offset is Asia/Manila's −15:56:08 before 1845.
    static let maximumOffset: Int64 = 18 * 3600

    /// Whether `instant` can fall on local date `date` in any zone: no zone lookup, only arithmetic. UTC offsets
    /// stay within ±18 h, so this rules out everything but the instants near the date, which `localDate(of:)`
    /// then decides. For picking one day's entries out of a long history.
    package static func instant(_ instant: Instant, mayFallOn date: LocalDate) -> Bool {
        Self.instant(instant, mayFallWithin: date...date)
    }

    /// Whether `instant` can fall on a local date within `days` in any zone, by the same arithmetic.
    package static func instant(_ instant: Instant, mayFallWithin days: ClosedRange<LocalDate>) -> Bool {
        let start = Int64(days.lowerBound.dayNumber) * 86_400 - maximumOffset
        let end = Int64(days.upperBound.dayNumber) * 86_400 + 86_400 + maximumOffset
        let seconds = instant.secondsSince1970
        return seconds >= start && seconds < end
    }

    /// Whether `instant` can fall on a local date after `date` in any zone: no zone lookup, only arithmetic (UTC
    /// offsets stay within ±18 h). For telling a history's future items from the rest.
    package static func instant(_ instant: Instant, mayFallAfter date: LocalDate) -> Bool {
        instant.secondsSince1970 >= (Int64(date.dayNumber) + 1) * 86_400 - maximumOffset
    }

    /// The local civil date and the seconds elapsed on the local wall clock since its midnight.
    package func localDateTime(of instant: Instant) -> (date: LocalDate, secondOfDay: Int) {
        let reading = LocalDate.clockReading(at: instant, utcOffset: utcOffset(at: instant))
        return (LocalDate(dayNumber: reading.dayNumber), reading.secondOfDay)
    }

    /// The day number (days since 1970-01-01) of the local date at `instant`, not clamped to the supported dates.
    func localDayNumber(of instant: Instant) -> Int {
        LocalDate.clockReading(at: instant, utcOffset: utcOffset(at: instant)).dayNumber
    }

    /// The first instant at which the zone's clock shows `date` or a later date: local midnight; where a transition
    /// skips midnight, the transition itself; on a fall-back night that repeats midnight, the earlier midnight; for
    /// a date the zone skipped, the start of the next day.
    package func startOfDay(_ date: LocalDate) -> Instant {
        startOfDay(dayNumber: Int(date.dayNumber))
    }

    /// `startOfDay(_:)` by day number, so that the day after 9999-12-31 can end that date's day.
    private func startOfDay(dayNumber: Int) -> Instant {
        let localMidnight = Int64(dayNumber) * 86_400
        // The instant lies within ±18 h of local midnight read as UTC; at most one transition falls in that
        // window (the tz database has none closer than 48 h to another), so the offsets at its two ends are the
        // only candidates.
        let window = Self.maximumOffset
        let offsets = [
            utcOffset(at: Instant(secondsSince1970: localMidnight - window)),
            utcOffset(at: Instant(secondsSince1970: localMidnight + window)),
        ]
        let valid = offsets.compactMap { offset -> Instant? in
            let candidate = Instant(secondsSince1970: localMidnight - Int64(offset))
            return utcOffset(at: candidate) == offset ? candidate : nil
        }
        if let earliest = valid.min() { return earliest }
        // Midnight falls in a gap: the day starts at the transition that jumps over it. For a skipped date that
        // jump lands on the next date, whose day starts there too: the skipped date's day is empty. Transitions
        // fall on whole seconds.
        let searchFrom = Date(timeIntervalSince1970: Double(localMidnight - window))
        return timeZone.nextDaylightSavingTimeTransition(after: searchFrom).map {
            Instant(secondsSince1970: Int64($0.timeIntervalSince1970.rounded()))
        }
            ?? Instant(secondsSince1970: localMidnight - Int64(offsets[0]))
    }

    /// The half-open span of instants that make up local day `date`: empty for a date the zone skipped.
    package func interval(of date: LocalDate) -> Range<Instant> {
        startOfDay(date)..<startOfDay(dayNumber: Int(date.dayNumber) + 1)
    }

    /// The elapsed hours of local day `date`: 24 buckets on most days, 23 on a spring-forward day and 25 on a
    /// fall-back day (22 and 26 where the clock moves by two hours), none on a date the zone skipped. The last
    /// bucket is shorter where a zone's day is not a whole number of hours (Lord Howe's 30-minute shifts, the day a
    /// zone left local mean time).
    package func hours(of date: LocalDate) -> [LocalHour] {
        let day = interval(of: date)
        var hours: [LocalHour] = []
        hours.reserveCapacity(25)
        var start = day.lowerBound
        while start < day.upperBound {
            let end = min(start.advanced(by: .seconds(3600)), day.upperBound)
            let offset = utcOffset(at: start)
            let local = localDateTime(of: start)
            hours.append(LocalHour(start: start, end: end, hour: local.secondOfDay / 3600, utcOffset: offset))
            start = end
        }
        return hours
    }
}

/// One elapsed hour of a local day: the bucket that hourly samples fall into.
package struct LocalHour: Hashable, Sendable {
    /// First instant of the bucket.
    package let start: Instant
    /// First instant after it.
    package let end: Instant
    /// The wall-clock hour at `start` (0...23). On a fall-back day two buckets share an hour and differ in offset.
    package let hour: Int
    /// Seconds east of UTC at `start`.
    package let utcOffset: Int

    /// The bucket's start as local RFC 3339 time (`2026-11-01T01:00:00-05:00`): unambiguous even on fall-back days.
    /// In UTC where the offset has seconds (local mean time before a zone adopted standard time), which RFC 3339
    /// cannot write (see `RFC3339.format(_:offset:)`).
    package var label: String { RFC3339.format(start, offset: utcOffset) }
}
