import Foundation
import TallyCalendar
import TallyCore

/// What a zone's clock shows, read straight from Foundation's `TimeZone` (its UTC offsets and its list of
/// transitions), by a method of its own: the expectation the zone property tests hold Tally's answers to.
///
/// Tally finds where a local day starts from the offsets at two candidate midnights and falls back on the next
/// transition in a gap. The oracle instead walks the stretches of constant offset around the date, in order,
/// and takes the first instant at which the clock shows the date or a later one: the definition itself. The two
/// share the zone data only; `ZonePeerTests` cross-checks that data against Python's `zoneinfo`.
struct ZoneOracle {
    let zone: TimeZone

    init(_ zone: TimeZone) {
        self.zone = zone
    }

    /// Seconds east of UTC at `seconds` since 1970.
    func offset(at seconds: Double) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)) }

    /// Days since 1970-01-01 of the date on the clock at `seconds`, and the seconds since that date's midnight.
    func wallClock(at seconds: Double) -> (dayNumber: Int, secondOfDay: Int) {
        let local = Int(seconds.rounded(.down)) + offset(at: seconds)
        let dayNumber = Int((Double(local) / 86_400).rounded(.down))
        return (dayNumber, local - dayNumber * 86_400)
    }

    /// The transitions strictly between `start` and `end`, in order.
    func transitions(from start: Double, to end: Double) -> [Double] {
        var found: [Double] = []
        var after = Date(timeIntervalSince1970: start)
        while let next = zone.nextDaylightSavingTimeTransition(after: after), next.timeIntervalSince1970 < end {
            found.append(next.timeIntervalSince1970)
            after = next
        }
        return found
    }

    /// The first instant at which the clock shows day `dayNumber` or a later day. Within a stretch of constant
    /// offset `o` the clock reads `t + o`, which reaches the date's midnight `m` at `m − o`; the first stretch in
    /// which that happens (or that already starts past it) holds the answer.
    func dayStart(_ dayNumber: Int) -> Double {
        let midnight = Double(dayNumber * 86_400)
        // No offset is beyond ±18 h: the answer lies in this window.
        let (low, high) = (midnight - 20 * 3600, midnight + 20 * 3600)
        let bounds = [low] + transitions(from: low, to: high) + [high]
        for (start, end) in zip(bounds, bounds.dropFirst()) {
            let reached = max(start, midnight - Double(offset(at: start)))
            if reached < end { return reached }
        }
        return high
    }

    /// Whether the zone's clock never showed day `dayNumber`: its day has no time in it.
    func skipped(_ dayNumber: Int) -> Bool { dayStart(dayNumber) == dayStart(dayNumber + 1) }

    /// The elapsed hour buckets of day `dayNumber`: consecutive hours from its start, the last one cut at its end.
    func hourBuckets(_ dayNumber: Int) -> [(start: Double, end: Double)] {
        let (start, end) = (dayStart(dayNumber), dayStart(dayNumber + 1))
        return stride(from: start, to: end, by: 3600).map { ($0, min($0 + 3600, end)) }
    }

    /// Whether `text`, which Tally wrote for the instant `seconds`, is written as the rule says: with the zone's
    /// offset at that instant, or in UTC where that offset has seconds or the local time leaves the years
    /// 0001...9999. (That `text` names `seconds` exactly is checked by parsing it.)
    func isWrittenByTheRule(_ text: String, at seconds: Double) -> Bool {
        let offset = offset(at: seconds)
        let local = wallClock(at: seconds).dayNumber
        let localYearFits = local >= Int(LocalDate.earliest.dayNumber) && local <= Int(LocalDate.latest.dayNumber)
        let expectsOffset = offset % 60 == 0 && localYearFits && offset != 0
        guard expectsOffset else { return text.hasSuffix("Z") }
        let minutes = abs(offset) / 60
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return text.hasSuffix((offset < 0 ? "-" : "+") + twoDigits(minutes / 60) + ":" + twoDigits(minutes % 60))
    }
}
