import TallyCore
import TallyJSONCoding
import TallyProtocol

extension RequestTime {
    /// The zone's calendar, in which every day of the request is found.
    package var calendar: ZoneCalendar {
        switch zone {
        case .named(let name): ZoneCalendar(timeZone: name.timeZone)
        // The decoder accepts only offsets within ±18 h, which every calendar of a fixed offset takes.
        case .fixedOffset(let minutes): ZoneCalendar(utcOffsetMinutes: minutes)!
        }
    }

    /// Today in the request's zone, as every method reads it.
    /// - Throws: `invalid_params` on `params.now` when `now`'s local date in the zone lies outside
    ///   0001-01-01...9999-12-31 (no such day could be today).
    package func checkedReferenceDay() throws(TallyError) -> ReferenceDay {
        switch reference {
        case .now(let timestamp):
            _ = try calendar.requestDate(of: timestamp.instant, at: .params + "now")
            return ReferenceDay(now: timestamp.instant, in: calendar)
        case .today(let date):
            return ReferenceDay(today: date)
        }
    }

    /// Today in the request's zone, unchecked: a `now` beyond the supported dates is clamped to the nearest one.
    /// Methods read `checkedReferenceDay()`.
    package var referenceDay: ReferenceDay {
        switch reference {
        case .now(let timestamp): ReferenceDay(now: timestamp.instant, in: calendar)
        case .today(let date): ReferenceDay(today: date)
        }
    }
}
