import TallyCalendar

/// A multi-week training plan a workout belongs to: "Week Y of Z" on the drill-down.
public struct WorkoutPlan: Sendable, Hashable {
    public var id: String?
    public var name: String?
    /// The plan's first day, a civil date in the user's zone.
    public var startDate: LocalDate
    /// The plan's length in weeks, ≥ 1.
    public var weeks: Int

    public init(id: String? = nil, name: String? = nil, startDate: LocalDate, weeks: Int) {
        self.id = id
        self.name = name
        self.startDate = startDate
        self.weeks = weeks
    }

    /// The plan week that `date` falls in: `floor(days from the start / 7) + 1`, counted in calendar days so
    /// that a 23- or 25-hour DST day is still one day, and capped at `weeks` (a workout logged after the plan
    /// ran out is shown in its last week).
    /// - Returns: 1...weeks, or `nil` before the plan's start.
    public func week(on date: LocalDate) -> Int? {
        let days = startDate.days(to: date)
        guard days >= 0 else { return nil }
        return min(days / 7 + 1, weeks)
    }
}
