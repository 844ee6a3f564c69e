import TallyCalendar

/// Why the dashboard cannot chart the selected day: the chart would have to name a date or an instant outside what
/// Tally reads and writes, and a chart cut short at the edge would pass for a whole one.
package enum DashboardRangeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The week holding `date` (by `weekStart`) starts before 0001-01-01 or ends after 9999-12-31.
    case weekOutsideSupportedDates(date: LocalDate, weekStart: WeekStart)
    /// Local day `date` starts before 0001-01-01T00:00:00Z or ends at 10000-01-01T00:00:00Z or later: the bounds
    /// of its hours cannot be written as RFC 3339 instants.
    case dayOutsideSupportedInstants(LocalDate)

    package var description: String {
        switch self {
        case .weekOutsideSupportedDates(let date, let weekStart):
            "the \(weekStart.rawValue)-first week holding \(date) reaches beyond 0001-01-01...9999-12-31, "
                + "the dates Tally supports"
        case .dayOutsideSupportedInstants(let date):
            "in this zone the day \(date) reaches beyond 0001-01-01T00:00:00Z...9999-12-31T23:59:59Z, "
                + "so its hours cannot be written as RFC 3339 instants"
        }
    }
}
