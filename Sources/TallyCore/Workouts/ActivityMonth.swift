import TallyCalendar
import TallyProtocol

/// One month of the activity calendar: the days holding activities of the chosen types, and whether the
/// calendar can page further back or forward.
package struct ActivityMonth: Sendable {
    /// One marked day and its activities in calendar order.
    package struct Day: Sendable, Hashable {
        package let date: LocalDate
        package let entries: [ActivityTimeline.Entry]
    }

    package let month: YearMonth
    /// The types shown (the request's filter).
    package let types: Set<ActivityType>
    /// Days of the month with at least one activity of `types`, ascending.
    package let days: [Day]
    /// Whether paging back leads anywhere: an earlier month holds an activity of `types`, or the current month
    /// lies before this one.
    package let hasEarlier: Bool
    /// Whether paging forward leads anywhere: a later month holds an activity of `types`, or the current month
    /// lies after this one (the calendar's home month is always reachable).
    package let hasLater: Bool

    /// Nothing of `types` was logged this month ("No workouts logged yet").
    package var isEmpty: Bool { days.isEmpty }

    /// Selects `month` from `timeline`.
    /// - Parameters:
    ///   - types: the types to show; activities of other types neither mark days nor extend the range.
    ///   - today: today in the request's zone; its month bounds navigation together with the history.
    package init(timeline: ActivityTimeline, month: YearMonth, types: Set<ActivityType>, today: LocalDate) {
        let first = timeline.entries.first { types.contains($0.type) }?.date
        let last = timeline.entries.last { types.contains($0.type) }?.date
        self.init(
            monthOf: timeline, month: month, types: types, today: today,
            historySpan: first.flatMap { first in last.map { first...$0 } })
    }

    /// Selects `month` from a timeline that needs to hold only the month's activities, the rest of the history
    /// being summed up by `historySpan`, so that a long history need not be converted and sorted for one month.
    /// - Parameter historySpan: the dates of the first and the last activity of `types` in the whole history;
    ///   `nil` when there is none.
    package init(
        monthOf timeline: ActivityTimeline, month: YearMonth, types: Set<ActivityType>, today: LocalDate,
        historySpan: ClosedRange<LocalDate>?
    ) {
        var days: [Day] = []
        var pending: [ActivityTimeline.Entry] = []
        for entry in timeline.entries(in: month.firstDay...month.lastDay) where types.contains(entry.type) {
            if let date = pending.first?.date, date != entry.date {
                days.append(Day(date: date, entries: pending))
                pending.removeAll(keepingCapacity: true)
            }
            pending.append(entry)
        }
        if let date = pending.first?.date { days.append(Day(date: date, entries: pending)) }
        self.month = month
        self.types = types
        self.days = days
        self.hasEarlier = (historySpan.map { $0.lowerBound < month.firstDay } ?? false) || today.yearMonth < month
        self.hasLater = (historySpan.map { $0.upperBound > month.lastDay } ?? false) || today.yearMonth > month
    }
}
