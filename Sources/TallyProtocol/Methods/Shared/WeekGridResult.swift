import TallyCalendar
import TallyCore

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

    public init(_ grid: WeekGrid) {
        weekStartsOn = grid.weekStart
        columns = grid.columns.map(WeekdayName.init)
        leadingBlanks = grid.leadingBlanks
        trailingBlanks = grid.trailingBlanks
        weeks = grid.weeks
    }

    enum CodingKeys: String, CodingKey {
        case columns, weeks
        case weekStartsOn = "week_starts_on"
        case leadingBlanks = "leading_blanks"
        case trailingBlanks = "trailing_blanks"
    }
}
