import TallyCalendar

/// A weekday as a grid column: `sunday` … `saturday`.
public enum WeekdayName: String, Codable, Sendable, Hashable, CaseIterable {
    case sunday, monday, tuesday, wednesday, thursday, friday, saturday

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
