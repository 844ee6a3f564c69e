import TallyCalendar

extension HistoryMonth {
    /// The month: its days, their week grid, the list rows and the month's totals.
    public struct Result: Codable, Sendable, Hashable {
        public var month: YearMonth
        /// Today in the request's zone.
        public var asOf: LocalDate
        public var goalTrackingEnabled: Bool
        /// Every day of the month, 1st first.
        public var days: [HistoryDayResult]
        /// The days in week rows: `leading_blanks` by `week_starts_on`, 28, 35 or 42 cells (7 × rows).
        public var grid: WeekGridResult
        /// List mode: the days with a record up to today, most recent first.
        public var rows: [HistoryDayResult]
        /// Sums over `rows`; `count` is the number of days with data.
        public var totals: StepTotalsResult
        /// Days in state `completed`.
        public var completedDays: Int
        /// The nearest months the user may open before and after this one (null at either end): the month
        /// picker's arrows.
        public var previousMonth: YearMonth?
        public var nextMonth: YearMonth?
        /// Records dated after today, left out.
        public var futureRecordsIgnored: Int

        public init(
            month: YearMonth, asOf: LocalDate, goalTrackingEnabled: Bool, days: [HistoryDayResult],
            grid: WeekGridResult, rows: [HistoryDayResult], totals: StepTotalsResult, completedDays: Int,
            previousMonth: YearMonth?, nextMonth: YearMonth?, futureRecordsIgnored: Int
        ) {
            self.month = month
            self.asOf = asOf
            self.goalTrackingEnabled = goalTrackingEnabled
            self.days = days
            self.grid = grid
            self.rows = rows
            self.totals = totals
            self.completedDays = completedDays
            self.previousMonth = previousMonth
            self.nextMonth = nextMonth
            self.futureRecordsIgnored = futureRecordsIgnored
        }

        enum CodingKeys: String, CodingKey {
            case month
            case asOf = "as_of"
            case goalTrackingEnabled = "goal_tracking_enabled"
            case days, grid, rows, totals
            case completedDays = "completed_days"
            case previousMonth = "previous_month"
            case nextMonth = "next_month"
            case futureRecordsIgnored = "future_records_ignored"
        }
    }
}
