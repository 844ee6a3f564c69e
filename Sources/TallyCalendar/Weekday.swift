/// A day of the week, numbered as Foundation's Gregorian calendar numbers them (Sunday = 1).
public enum Weekday: Int, CaseIterable, Sendable, Hashable {
    /// Sunday, 1.
    case sunday = 1
    /// Monday, 2.
    case monday
    /// Tuesday, 3.
    case tuesday
    /// Wednesday, 4.
    case wednesday
    /// Thursday, 5.
    case thursday
    /// Friday, 6.
    case friday
    /// Saturday, 7.
    case saturday

    /// English name, as the workout cards show it ("Monday").
    public var name: String {
        switch self {
        case .sunday: "Sunday"
        case .monday: "Monday"
        case .tuesday: "Tuesday"
        case .wednesday: "Wednesday"
        case .thursday: "Thursday"
        case .friday: "Friday"
        case .saturday: "Saturday"
        }
    }
}

/// The first column of every week grid: a per-request preference (`week_starts_on`).
public enum WeekStart: String, CaseIterable, Sendable, Hashable {
    /// Weeks run Sunday to Saturday (`"sunday"`).
    case sunday
    /// Weeks run Monday to Sunday (`"monday"`, ISO 8601's week).
    case monday

    /// The weekday in the first column.
    public var firstWeekday: Weekday { self == .sunday ? .sunday : .monday }

    /// How many blank cells precede a day of `weekday` in the first row of a grid:
    /// `(weekday − 1 − offset)` wrapped into 0...6, with offset 0 for Sunday-first and 1 for Monday-first.
    public func leadingBlanks(before weekday: Weekday) -> Int {
        let offset = self == .sunday ? 0 : 1
        return (weekday.rawValue - 1 - offset + 7) % 7
    }

    /// The first day of the week that holds `date`.
    /// - Important: clamped to 0001-01-01 (a Monday) for the days of the Sunday-first week before it;
    ///   `week(containing:)` says when a week leaves the supported dates.
    public func startOfWeek(containing date: LocalDate) -> LocalDate {
        date.adding(days: -leadingBlanks(before: date.weekday))
    }

    /// The seven days of the week that holds `date`, or `nil` when that week starts before 0001-01-01 or ends
    /// after 9999-12-31 (the Sunday-first week of 0001-01-01 begins on a day before it; the week of 9999-12-31
    /// ends in year 10000): a week with fewer than seven days would be no week at all.
    public func week(containing date: LocalDate) -> ClosedRange<LocalDate>? {
        let first = Int(date.dayNumber) - leadingBlanks(before: date.weekday)
        guard first >= Int(LocalDate.earliest.dayNumber), first + 6 <= Int(LocalDate.latest.dayNumber) else {
            return nil
        }
        return LocalDate(dayNumber: first)...LocalDate(dayNumber: first + 6)
    }

    /// Weekdays in column order.
    public var orderedWeekdays: [Weekday] {
        (0..<7).map { Weekday(rawValue: (firstWeekday.rawValue - 1 + $0) % 7 + 1)! }
    }
}
