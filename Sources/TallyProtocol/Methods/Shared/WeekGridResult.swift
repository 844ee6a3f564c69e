import TallyCalendar

/// A weekday as a grid column: `sunday` … `saturday`.
public enum WeekdayName: String, Codable, Sendable, Hashable, CaseIterable {
    case sunday, monday, tuesday, wednesday, thursday, friday, saturday

    public init(_ weekday: Weekday) {
        // Both enumerations list the days Sunday first.
        self = Self.allCases[weekday.rawValue - 1]
    }
}

/// A week layout (the streak heatmap's, a history month's): rows of 7 cells, each a date of `days` or null for a
/// blank.
public struct WeekGridResult: Codable, Sendable, Hashable {
    public var weekStartsOn: WeekStart
    /// The weekday of each column.
    public var columns: [WeekdayName]
    public var leadingBlanks: Int
    public var trailingBlanks: Int
    public var weeks: [[LocalDate?]]

    /// A layout starting its rows on `weekStartsOn`; the columns follow from it.
    public init(weekStartsOn: WeekStart, leadingBlanks: Int, trailingBlanks: Int, weeks: [[LocalDate?]]) {
        self.weekStartsOn = weekStartsOn
        self.columns = weekStartsOn.orderedWeekdays.map(WeekdayName.init)
        self.leadingBlanks = leadingBlanks
        self.trailingBlanks = trailingBlanks
        self.weeks = weeks
    }

    enum CodingKeys: String, CodingKey {
        case columns, weeks
        case weekStartsOn = "week_starts_on"
        case leadingBlanks = "leading_blanks"
        case trailingBlanks = "trailing_blanks"
    }
}
