import TallyCalendar

/// Whether the user tracks a daily step goal, and if so, its history.
///
/// With goal tracking off (the app's `enableDailyStepGoal` switched off) no day is "completed" and streaks are
/// not offered; the goal log may still exist and is used for progress where a screen shows it.
public struct GoalSettings: Sendable, Equatable {
    /// `enableDailyStepGoal`.
    public var trackingEnabled: Bool
    /// The goal history.
    public var log: GoalLog

    public init(trackingEnabled: Bool, log: GoalLog) {
        self.trackingEnabled = trackingEnabled
        self.log = log
    }

    /// Progress of `steps` toward the goal of `date`: `min(steps / goal, 1)`.
    public func progress(steps: Int, on date: LocalDate) -> Double {
        min(Double(steps) / Double(log.goal(on: date)), 1)
    }

    /// Whether `steps` meet the goal active on `date` (regardless of tracking).
    public func meetsGoal(steps: Int, on date: LocalDate) -> Bool {
        steps >= log.goal(on: date)
    }
}
