import Foundation

/// Civil time in one time zone: which local day and hour an instant falls in, and where a local day begins.
///
/// Every "which day is it" question of a request is answered here, in the request's zone. Days are found from
/// the zone's UTC offsets, never by assuming 86,400-second days: a spring-forward day has 23 hours, a fall-back
/// day 25, and in some zones (America/Havana, Asia/Beirut in past years) midnight itself does not exist.
public struct ZoneCalendar: Sendable {
    /// The zone: an IANA zone, or a fixed offset for clients that send one.
    public let timeZone: TimeZone

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// A zone at a fixed offset from UTC, as the activity-calendar clients send it (`utc_offset_minutes`).
    /// - Returns: `nil` outside −18 h...+18 h.
    public init?(utcOffsetMinutes minutes: Int) {
        guard abs(minutes) <= 18 * 60, let zone = TimeZone(secondsFromGMT: minutes * 60) else { return nil }
        self.init(timeZone: zone)
    }

    /// The IANA zone named `identifier` (`Europe/Berlin`), or `nil` when the zone database does not know it.
    public init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.init(timeZone: zone)
    }

    /// Seconds east of UTC in force at `instant`.
    public func utcOffset(at instant: Date) -> Int { timeZone.secondsFromGMT(for: instant) }

    /// The local civil date at `instant`.
    public func localDate(of instant: Date) -> LocalDate {
        localDateTime(of: instant).date
    }

    /// Whether `instant` can fall on local date `date` in any zone: no zone lookup, only arithmetic. UTC offsets
    /// stay within ±18 h, so this rules out everything but the instants near the date, which `localDate(of:)`
    /// then decides. For picking one day's entries out of a long history.
    public static func instant(_ instant: Date, mayFallOn date: LocalDate) -> Bool {
        let start = Double(Int(date.dayNumber) * 86_400) - 18 * 3600
        let end = Double(Int(date.dayNumber) * 86_400) + 86_400 + 18 * 3600
        let seconds = instant.timeIntervalSince1970
        return seconds >= start && seconds < end
    }

    /// The local civil date and the seconds elapsed on the local wall clock since its midnight.
    public func localDateTime(of instant: Date) -> (date: LocalDate, secondOfDay: Int) {
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + utcOffset(at: instant)
        let dayNumber = Int((Double(local) / 86_400).rounded(.down))
        return (LocalDate(dayNumber: dayNumber), local - dayNumber * 86_400)
    }

    /// The first instant whose local date is `date`: local midnight, or, where a transition skips midnight,
    /// the transition itself. On a fall-back night that repeats midnight, the earlier midnight.
    public func startOfDay(_ date: LocalDate) -> Date {
        let localMidnight = Double(Int(date.dayNumber) * 86_400)
        // The instant lies within ±18 h of local midnight read as UTC; at most one transition falls in that
        // window, so the offsets at its two ends are the only candidates.
        let window = 18.0 * 3600
        let offsets = [
            utcOffset(at: Date(timeIntervalSince1970: localMidnight - window)),
            utcOffset(at: Date(timeIntervalSince1970: localMidnight + window)),
        ]
        let valid = offsets.compactMap { offset -> Date? in
            let candidate = Date(timeIntervalSince1970: localMidnight - Double(offset))
            return utcOffset(at: candidate) == offset ? candidate : nil
        }
        if let earliest = valid.min() { return earliest }
        // Midnight falls in a gap: the day starts at the transition that jumps over it.
        let searchFrom = Date(timeIntervalSince1970: localMidnight - window)
        return timeZone.nextDaylightSavingTimeTransition(after: searchFrom)
            ?? Date(timeIntervalSince1970: localMidnight - Double(offsets[0]))
    }

    /// The half-open span of instants that make up local day `date`.
    public func interval(of date: LocalDate) -> Range<Date> {
        let start = startOfDay(date)
        // 9999-12-31 has no next date to start at: its day is taken to be 24 hours long.
        guard date < .latest else { return start..<start.addingTimeInterval(86_400) }
        return start..<startOfDay(date.adding(days: 1))
    }

    /// The elapsed hours of local day `date`: 24 buckets on most days, 23 on a spring-forward day and 25 on a
    /// fall-back day. The last bucket is shorter where a zone's day is not a whole number of hours.
    public func hours(of date: LocalDate) -> [LocalHour] {
        let day = interval(of: date)
        var hours: [LocalHour] = []
        hours.reserveCapacity(25)
        var start = day.lowerBound
        while start < day.upperBound {
            let end = min(start.addingTimeInterval(3600), day.upperBound)
            let offset = utcOffset(at: start)
            let local = localDateTime(of: start)
            hours.append(LocalHour(start: start, end: end, hour: local.secondOfDay / 3600, utcOffset: offset))
            start = end
        }
        return hours
    }
}

/// One elapsed hour of a local day: the bucket that hourly samples fall into.
public struct LocalHour: Hashable, Sendable {
    /// First instant of the bucket.
    public let start: Date
    /// First instant after it.
    public let end: Date
    /// The wall-clock hour at `start` (0...23). On a fall-back day two buckets share an hour and differ in offset.
    public let hour: Int
    /// Seconds east of UTC at `start`.
    public let utcOffset: Int

    /// The bucket's start as local RFC 3339 time (`2026-11-01T01:00:00-05:00`): unambiguous even on fall-back days.
    public var label: String { RFC3339.format(start, offset: utcOffset) }
}
