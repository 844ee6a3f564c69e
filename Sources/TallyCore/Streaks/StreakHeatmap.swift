import TallyCalendar
import TallyProtocol

/// The streak sheet's 30-day heatmap: today and the 29 days before it, coloured by steps and laid out in weeks.
///
/// Intensity follows the app's `HeatmapCellView`: `0.15 + (steps / maxSteps) × 0.85`, where `maxSteps` is the
/// most steps of any day in the 30, so the best day of the window is always full colour and any day with steps
/// is visibly coloured. Zero and no-data days have no intensity (they are grey); when every day of the window
/// is zero or has no data, no intensity is computed at all, so there is no division by a zero maximum.
package struct StreakHeatmap: Sendable, Hashable {
    /// Days in the window.
    package static let length = 30
    /// The intensity of a day with the fewest possible steps above zero.
    package static let minimumIntensity = 0.15

    /// The first day of the window: today − 29.
    package let start: LocalDate
    /// The last day of the window: today.
    package let end: LocalDate
    /// The window's days, oldest first; the last is today.
    package let days: [HeatmapDay]
    /// The most steps of any day in the window, or `nil` when no day of it has a record.
    package let maxSteps: Int?
    /// The week layout of `days`.
    package let grid: WeekGrid

    /// - Parameters:
    ///   - today: the last day of the window; `today − 29` must be a supported date (callers bound `today`).
    ///   - current: the current streak as the badge shows it, to mark its days.
    package init(
        today: LocalDate, history: StepHistory, goals: GoalLog, current: StreakRun?, weekStart: WeekStart
    ) {
        let first = today.adding(days: -(Self.length - 1))
        let window = history.records(in: first...today)
        let maxSteps = window.map(\.steps).max()
        var sweep = GoalSweep(goals)
        var next = window.startIndex
        var days: [HeatmapDay] = []
        days.reserveCapacity(Self.length)
        for offset in 0..<Self.length {
            let date = first.adding(days: offset)
            let goal = sweep.goal(on: date)
            var steps: Int?
            if next < window.endIndex, window[next].date == date {
                steps = window[next].steps
                next += 1
            }
            days.append(
                HeatmapDay(
                    date: date, steps: steps, goal: goal,
                    state: DayState(steps: steps, goal: goal, trackingEnabled: true),
                    inCurrentStreak: current?.contains(date) ?? false, isToday: date == today,
                    intensity: Self.intensity(steps: steps, maxSteps: maxSteps ?? 0)))
        }
        self.start = first
        self.end = today
        self.days = days
        self.maxSteps = maxSteps
        self.grid = WeekGrid(first: first, last: today, weekStart: weekStart)
    }

    /// `0.15 + steps / maxSteps × 0.85` for steps > 0 (then `maxSteps ≥ steps > 0`); `nil` otherwise.
    static func intensity(steps: Int?, maxSteps: Int) -> Double? {
        guard let steps, steps > 0, maxSteps > 0 else { return nil }
        return minimumIntensity + Double(steps) / Double(maxSteps) * (1 - minimumIntensity)
    }
}
