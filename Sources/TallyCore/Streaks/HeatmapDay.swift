import TallyCalendar
import TallyProtocol

/// One cell of the 30-day heatmap (the app's `HeatmapDayRecord`).
package struct HeatmapDay: Sendable, Hashable {
    package let date: LocalDate
    /// The day's steps, or `nil` for no data.
    package let steps: Int?
    /// The goal active that day.
    package let goal: Int
    /// `no_data` and `zero` (both grey, different facts), `in_progress` (the blue ramp), `completed` (the green
    /// ramp): the heatmap exists only with goal tracking on and ends today, so never `full` or `future`.
    package let state: DayState
    /// Whether the day belongs to the current streak as the badge shows it.
    package let inCurrentStreak: Bool
    package let isToday: Bool
    /// `0.15 + steps / maxSteps × 0.85` for days with steps > 0; `nil` for zero and no-data days, which are
    /// grey and have no colour ramp (their `state` says which grey).
    package let intensity: Double?
}
