import TallyCalendar
import TallyProtocol

/// One day as the history screens show it: a calendar cell, a list row (the app's `DailyRecordRow`) or a bar of the
/// dashboard's weekly and monthly charts. Every day is judged against the goal in force on that day.
package struct HistoryDay: Sendable, Hashable {
    package let date: LocalDate
    /// The day's record; `nil` for no data and for future days (whose records are ignored).
    package let record: DailyRecordParams?
    /// The goal active on `date` (from the goal log, also when tracking is off).
    package let goal: Int
    /// `min(steps / goal, 1)`; `nil` without a record.
    package let progress: Double?
    package let state: DayState
    package let isToday: Bool

    /// Judges `date`.
    /// - Parameter record: the record of `date`, if there is one (future records may be passed: they are dropped).
    package init(date: LocalDate, record: DailyRecordParams?, goals: GoalSettings, today: LocalDate) {
        let goal = goals.log.goal(on: date)
        self.date = date
        self.goal = goal
        self.isToday = date == today
        guard date <= today else {
            self.record = nil
            self.progress = nil
            self.state = .future
            return
        }
        self.record = record
        self.progress = record.map { min(Double($0.steps) / Double(goal), 1) }
        self.state = DayState(steps: record?.steps, goal: goal, trackingEnabled: goals.trackingEnabled)
    }

    /// Whether the day can be selected: every day up to today.
    package var isFuture: Bool { state == .future }

    /// Opacity of the cell's colour: the progress while in progress, 1 when completed or full, `nil` for the grey
    /// states (no data, zero, future).
    package var intensity: Double? {
        switch state {
        case .inProgress: progress
        case .completed, .full: 1
        case .zero, .noData, .future: nil
        }
    }

    /// The days `range` of `history`, judged in order.
    static func days(
        _ range: ClosedRange<LocalDate>, history: StepHistory, goals: GoalSettings, today: LocalDate
    ) -> [HistoryDay] {
        let records = history.records(in: range)
        var next = records.startIndex
        // Counted, not compared: dates clamp at 9999-12-31, so "the day after" cannot end a loop there.
        return (0...range.lowerBound.days(to: range.upperBound)).map { offset in
            let date = range.lowerBound.adding(days: offset)
            var record: DailyRecordParams?
            if next < records.endIndex, records[next].date == date {
                record = records[next]
                next += 1
            }
            return HistoryDay(date: date, record: record, goals: goals, today: today)
        }
    }
}
