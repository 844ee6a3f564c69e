import Foundation
import TallyCalendar

/// "Today" for one request: the local date in the request's zone, and the instant "now" when the request gave one.
///
/// Requests name either `now` (an instant) or `today` (a local date); everything that depends on today
/// (future days, the current streak, the review prompt) reads this value, so a request is a pure function of
/// its content and its answer never depends on the worker's clock.
///
/// It also holds the one rule for the future, which every method follows: a date is future when it is after today;
/// a timed item (a sample, a workout, a session) when its local date is after today or, if the request gave `now`,
/// when it lies after `now`. A request that gave only `today` named a day, not a moment, so nothing dated today
/// is future for it.
package struct ReferenceDay: Hashable, Sendable {
    /// Today's local date.
    package let today: LocalDate
    /// The instant the request was made, if it said.
    package let now: Instant?

    /// Today as the local date of `now` in `calendar`'s zone.
    package init(now: Instant, in calendar: ZoneCalendar) {
        self.now = now
        self.today = calendar.localDate(of: now)
    }

    /// Today given directly as a local date.
    package init(today: LocalDate) {
        self.today = today
        self.now = nil
    }

    /// Whether `date` is after today.
    package func isFuture(_ date: LocalDate) -> Bool { date > today }

    /// Whether the timed item at `instant`, whose local date is `date`, is future: dated after today, or after
    /// `now` when the request gave one.
    package func isFuture(_ instant: Instant, on date: LocalDate) -> Bool {
        date > today || now.map { instant > $0 } ?? false
    }

    /// Whether the timed item at `instant` is future (see `isFuture(_:on:)`), dating it in `calendar` only when it
    /// could fall after today: an instant more than 18 hours before the end of today read as UTC is dated today or
    /// earlier in every zone, so a long history costs no zone lookup but for its last day.
    package func isFuture(_ instant: Instant, in calendar: ZoneCalendar) -> Bool {
        if let now, instant > now { return true }
        guard ZoneCalendar.instant(instant, mayFallAfter: today) else { return false }
        return calendar.localDate(of: instant) > today
    }
}
