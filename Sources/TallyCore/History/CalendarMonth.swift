import TallyCalendar
import TallyProtocol

/// One month of the history calendar: the grid of day cells and the list-mode rows, computed together because
/// the app switches between the two views of the same month.
package struct CalendarMonth: Sendable, Hashable {
    package let month: YearMonth
    /// Every day of the month, 1st first.
    package let days: [HistoryDay]
    /// The days laid out in weeks: leading blanks by `week_starts_on`, 28, 35 or 42 cells.
    package let grid: WeekGrid
    /// List mode: the days with a record (up to today), most recent first.
    package let rows: [HistoryDay]
    /// Sums over `rows`.
    package let totals: StepTotals
    /// Days of the month whose state is `completed`.
    package let completedDays: Int

    package init(month: YearMonth, history: StepHistory, goals: GoalSettings, today: LocalDate, weekStart: WeekStart) {
        self.month = month
        self.days = HistoryDay.days(month.firstDay...month.lastDay, history: history, goals: goals, today: today)
        self.grid = WeekGrid(first: month.firstDay, last: month.lastDay, weekStart: weekStart)
        self.rows = days.reversed().filter { $0.record != nil }
        var totals = StepTotals()
        for record in rows.compactMap(\.record) { totals.add(record) }
        self.totals = totals
        self.completedDays = days.count { $0.state == .completed }
    }
}
