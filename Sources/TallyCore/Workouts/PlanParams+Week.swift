import TallyCalendar
import TallyProtocol

extension PlanParams {
    /// The plan week that `date` falls in: `floor(days from the start / 7) + 1`, counted in calendar days so
    /// that a 23- or 25-hour DST day is still one day, and capped at `weeks` (a workout logged after the plan
    /// ran out is shown in its last week).
    /// - Returns: 1...weeks, or `nil` before the plan's start.
    package func week(on date: LocalDate) -> Int? {
        let days = startDate.days(to: date)
        guard days >= 0 else { return nil }
        return min(days / 7 + 1, weeks)
    }
}
