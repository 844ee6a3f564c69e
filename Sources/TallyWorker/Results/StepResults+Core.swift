import TallyCore
import TallyProtocol

// The step results that several methods show (a day, sums, a week layout), built from TallyCore's values.

extension HistoryDayResult {
    /// The day's record, goal and state, with `progress` and `intensity` to 4 decimals.
    init(_ day: HistoryDay) {
        self.init(
            date: day.date, steps: day.record?.steps, distanceMeters: day.record?.distanceMeters,
            calories: day.record?.calories, flightsClimbed: day.record?.flightsClimbed, goal: day.goal,
            progress: day.progress.map { FigureRounding.rounded($0) }, state: day.state,
            intensity: day.intensity.map { FigureRounding.rounded($0) }, isToday: day.isToday)
    }
}

extension StepTotalsResult {
    /// The sums, distance and calories to 2 decimals.
    init(_ totals: StepTotals) {
        self.init(
            steps: totals.steps, distanceMeters: totals.distanceMeters.map { FigureRounding.rounded($0, places: 2) },
            calories: totals.calories.map { FigureRounding.rounded($0, places: 2) },
            flightsClimbed: totals.flightsClimbed, count: totals.count)
    }
}

extension WeekGridResult {
    init(_ grid: WeekGrid) {
        self.init(
            weekStartsOn: grid.weekStart, leadingBlanks: grid.leadingBlanks, trailingBlanks: grid.trailingBlanks,
            weeks: grid.weeks)
    }
}
