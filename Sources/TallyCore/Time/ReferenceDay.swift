import Foundation

/// "Today" for one request: the local date in the request's zone, and the instant "now" when the request gave one.
///
/// Requests name either `now` (an instant) or `today` (a local date); everything that depends on today
/// (future days, the current streak, the review prompt) reads this value, so a request is a pure function of
/// its content and its answer never depends on the worker's clock.
public struct ReferenceDay: Hashable, Sendable {
    /// Today's local date.
    public let today: LocalDate
    /// The instant the request was made, if it said.
    public let now: Date?

    /// Today as the local date of `now` in `calendar`'s zone.
    public init(now: Date, in calendar: ZoneCalendar) {
        self.now = now
        self.today = calendar.localDate(of: now)
    }

    /// Today given directly as a local date.
    public init(today: LocalDate) {
        self.today = today
        self.now = nil
    }

    /// Whether `date` is after today.
    public func isFuture(_ date: LocalDate) -> Bool { date > today }
}
