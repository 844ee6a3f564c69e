import TallyCalendar

/// Consecutive days laid out in week rows: blank cells before the first day so that each day sits in its
/// weekday's column, and blank cells after the last day to complete the last week. The streak heatmap (30 days)
/// and the history calendar (a month: 28, 35 or 42 cells) share it.
package struct WeekGrid: Sendable, Hashable {
    /// The first column.
    package let weekStart: WeekStart
    /// Blank cells before the first day: the first day's weekday counted from `weekStart`, 0...6.
    package let leadingBlanks: Int
    /// Blank cells after the last day that complete the last row, 0...6.
    package let trailingBlanks: Int
    /// Rows of exactly 7 cells; `nil` is a blank.
    package let weeks: [[LocalDate?]]

    /// Lays out the days `first...last`.
    /// - Important: `first` ≤ `last`; both callers lay out at most 31 days, so at most 6 rows.
    package init(first: LocalDate, last: LocalDate, weekStart: WeekStart) {
        let leading = weekStart.leadingBlanks(before: first.weekday)
        let dayCount = first.days(to: last) + 1
        let cellCount = (leading + dayCount + 6) / 7 * 7
        self.weekStart = weekStart
        self.leadingBlanks = leading
        self.trailingBlanks = cellCount - leading - dayCount
        var weeks: [[LocalDate?]] = []
        weeks.reserveCapacity(cellCount / 7)
        for row in 0..<(cellCount / 7) {
            weeks.append(
                (0..<7).map { column in
                    let offset = row * 7 + column - leading
                    return offset >= 0 && offset < dayCount ? first.adding(days: offset) : nil
                })
        }
        self.weeks = weeks
    }

    /// Blanks plus days: a multiple of 7 (28, 35 or 42 for a month).
    package var cellCount: Int { weeks.count * 7 }

    /// The weekday of each column, in order.
    package var columns: [Weekday] { weekStart.orderedWeekdays }
}
