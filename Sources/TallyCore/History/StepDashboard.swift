import Foundation
import TallyCalendar
import TallyProtocol

/// The home dashboard for a selected day: the step card of that day, the chart of the chosen mode with its
/// totals, and whether the app should ask for a review.
package struct StepDashboard: Sendable, Hashable {
    /// The chart.
    package enum Series: Sendable, Hashable {
        case hours(HourlySeries)
        case days([HistoryDay])
    }

    package let mode: DashboardMode
    /// The selected day (the card).
    package let day: HistoryDay
    package let series: Series
    /// Sums over the chart: the hours' samples, or the records of the days up to today.
    package let totals: StepTotals
    /// The seed's `presentReviewIfNeeded()`: goal tracking on, the selected day is today, and its goal is met.
    package let reviewPromptDue: Bool

    /// - Parameters:
    ///   - date: the selected day; not after `today` (callers refuse that: future days cannot be selected).
    ///   - samples: timed samples for the daily chart (ignored by the other modes).
    ///   - now: the request's instant, when it gave one: hours after it are future.
    /// - Throws: `DashboardRangeError` when the chart would reach beyond the supported dates or instants: the
    ///   week of a day in the first or last days of the calendar, the hours of a day at either end of it.
    package init(
        mode: DashboardMode, date: LocalDate, history: StepHistory, samples: [StepSampleParams], goals: GoalSettings,
        today: LocalDate, now: Instant?, calendar: ZoneCalendar, weekStart: WeekStart
    ) throws(DashboardRangeError) {
        self.mode = mode
        let day = HistoryDay(date: date, record: history[date], goals: goals, today: today)
        self.day = day
        switch mode {
        case .daily:
            let span = calendar.interval(of: date)
            guard RFC3339.supportedInstants.contains(span.lowerBound),
                RFC3339.supportedInstants.contains(span.upperBound)
            else { throw .dayOutsideSupportedInstants(date) }
            let hours = HourlySeries(date: date, samples: samples, calendar: calendar, now: date == today ? now : nil)
            self.series = .hours(hours)
            self.totals = hours.totals
        case .weekly, .monthly:
            let range: ClosedRange<LocalDate>
            if mode == .weekly {
                guard let week = weekStart.week(containing: date) else {
                    throw .weekOutsideSupportedDates(date: date, weekStart: weekStart)
                }
                range = week
            } else {
                range = date.yearMonth.firstDay...date.yearMonth.lastDay
            }
            let days = HistoryDay.days(range, history: history, goals: goals, today: today)
            var totals = StepTotals()
            for record in days.compactMap(\.record) { totals.add(record) }
            self.series = .days(days)
            self.totals = totals
        }
        self.reviewPromptDue = goals.trackingEnabled && day.isToday && (day.progress ?? 0) >= 1
    }
}
