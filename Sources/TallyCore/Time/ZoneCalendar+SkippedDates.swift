import Foundation
import TallyCalendar

/// Dates a zone left out of its calendar.
///
/// A handful of zones jumped over a whole date when they moved across the date line (Pacific/Apia and
/// Pacific/Fakaofo went from 29 to 31 December 2011, Kwajalein skipped 21 August 1993, Manila 31 December 1844).
/// Such a date is still a calendar date (it has a cell in the month grid, with an empty day), but nobody lived
/// it: nobody could walk on it or train on it, so it must neither break a streak nor count in one. The day before it
/// is "yesterday" of the day after it.
extension ZoneCalendar {
    /// Whether the zone's clock never showed `date`: its local day holds no instant.
    package func skipped(_ date: LocalDate) -> Bool {
        interval(of: date).isEmpty
    }

    /// Whether `later` is the first date after `earlier` that the zone's clock showed: the next day, or the day
    /// after dates the zone skipped. Only a gap of more than one day costs zone lookups.
    package func follows(_ later: LocalDate, after earlier: LocalDate) -> Bool {
        let gap = earlier.days(to: later)
        guard gap > 1 else { return gap == 1 }
        // No zone skipped more than a day at once; a longer gap is a real gap, whatever the zone.
        guard gap <= 3 else { return false }
        return (1..<gap).allSatisfy { skipped(earlier.adding(days: $0)) }
    }

    /// The last date before `date` that the zone's clock showed ("yesterday").
    package func lived(before date: LocalDate) -> LocalDate {
        var previous = date.adding(days: -1)
        while date > previous, previous > LocalDate.earliest, skipped(previous) { previous = previous.adding(days: -1) }
        return previous
    }
}

/// The succession of days that streaks count in: the calendar's, or, given a zone, the dates that zone lived.
package struct StreakDays: Sendable {
    /// `nil`: every calendar date follows the one before it (a fixed UTC offset never skips a date).
    package let calendar: ZoneCalendar?

    package init(calendar: ZoneCalendar?) {
        self.calendar = calendar
    }

    /// Every calendar date counts.
    package static let gregorian = StreakDays(calendar: nil)

    /// Whether `later` is the next lived date after `earlier`.
    package func follows(_ later: LocalDate, after earlier: LocalDate) -> Bool {
        calendar?.follows(later, after: earlier) ?? (earlier.days(to: later) == 1)
    }

    /// The lived date before `date`.
    package func previous(_ date: LocalDate) -> LocalDate {
        calendar?.lived(before: date) ?? date.adding(days: -1)
    }
}
