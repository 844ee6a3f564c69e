import TallyCalendar

/// Whether the user tracks a daily step goal, and if so, its history.
///
/// With goal tracking off (the app's `enableDailyStepGoal` switched off) no day is "completed" and streaks are
/// not offered; the goal log may still exist and is used for progress where a screen shows it.
package struct GoalSettings: Sendable, Equatable {
    /// `enableDailyStepGoal`.
    package var trackingEnabled: Bool
    /// The goal history.
    package var log: GoalLog

    package init(trackingEnabled: Bool, log: GoalLog) {
        self.trackingEnabled = trackingEnabled
        self.log = log
    }

    /// Progress of `steps` toward the goal of `date`: `min(steps / goal, 1)`.
    package func progress(steps: Int, on date: LocalDate) -> Double {
        min(Double(steps) / Double(log.goal(on: date)), 1)
    }

    /// Whether `steps` meet the goal active on `date` (regardless of tracking).
    package func meetsGoal(steps: Int, on date: LocalDate) -> Bool {
        steps >= log.goal(on: date)
    }
}
