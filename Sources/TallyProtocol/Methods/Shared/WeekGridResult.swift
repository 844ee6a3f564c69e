import TallyCalendar

/// A weekday as a grid column: `sunday` … `saturday`.
public enum WeekdayName: String, Codable, Sendable, Hashable, CaseIterable {
    /// Sunday's column: the first when weeks start on Sunday.
    case sunday
    /// Monday's column: the first when weeks start on Monday.
    case monday
    /// Tuesday's column.
    case tuesday
    /// Wednesday's column.
    case wednesday
    /// Thursday's column.
    case thursday
    /// Friday's column.
    case friday
    /// Saturday's column: the last when weeks start on Sunday.
    case saturday

    /// The column of `weekday`.
    public init(_ weekday: Weekday) {
        // Both enumerations list the days Sunday first.
        self = Self.allCases[weekday.rawValue - 1]
    }
}

extension WeekGridResult {
    /// A layout starting its rows on `weekStartsOn`; the columns follow from it.
    public init(weekStartsOn: WeekStart, leadingBlanks: Int, trailingBlanks: Int, weeks: [[LocalDate?]]) {
        self.init(
            weekStartsOn: weekStartsOn, columns: weekStartsOn.orderedWeekdays.map(WeekdayName.init),
            leadingBlanks: leadingBlanks, trailingBlanks: trailingBlanks, weeks: weeks)
    }
}
