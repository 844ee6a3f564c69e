import TallyCalendar

/// Everything the streak sheet shows, computed from one request: the answer of `streak.summary`.
///
/// With goal tracking off the app offers no streaks at all, so the report says exactly that instead of
/// returning a streak of 0 that a client could mistake for a broken streak.
package enum StreakReport: Sendable, Hashable {
    /// Goal tracking (`enableDailyStepGoal`) is off: no day is completed and streaks are not offered.
    case goalTrackingOff(today: LocalDate)
    /// Goal tracking is on.
    case active(ActiveStreakReport)

    /// Computes the report in O(records + goal changes).
    /// - Parameter today: must be at least 29 days after `LocalDate.earliest`, so the heatmap window exists.
    /// - Parameter days: the zone's succession of days (`StreakDays`).
    package init(
        history: StepHistory, goals: GoalSettings, today: LocalDate, weekStart: WeekStart,
        days: StreakDays = .gregorian
    ) {
        guard goals.trackingEnabled else {
            self = .goalTrackingOff(today: today)
            return
        }
        self = .active(
            ActiveStreakReport(history: history, goals: goals.log, today: today, weekStart: weekStart, days: days))
    }

    /// The earliest `today` a report can be computed for: the 30-day heatmap needs 29 days before it.
    package static let earliestToday = LocalDate.earliest.adding(days: StreakHeatmap.length - 1)
}

/// The streak sheet with goal tracking on.
package struct ActiveStreakReport: Sendable, Hashable {
    package let today: LocalDate
    package let streaks: Streaks
    package let milestones: Milestones
    package let todayProgress: TodayProgress
    package let heatmap: StreakHeatmap

    package init(
        history: StepHistory, goals: GoalLog, today: LocalDate, weekStart: WeekStart, days: StreakDays = .gregorian
    ) {
        let streaks = Streaks(history: history, goals: goals, today: today, days: days)
        self.today = today
        self.streaks = streaks
        self.milestones = Milestones(streakDays: streaks.currentCount)
        self.todayProgress = TodayProgress(today: today, history: history, goals: goals, streaks: streaks)
        self.heatmap = StreakHeatmap(
            today: today, history: history, goals: goals, current: streaks.current, weekStart: weekStart)
    }
}
