import TallyCalendar
import TallyProtocol

/// Today's card of the streak sheet: either "X to go" toward today's goal, or "Day N locked in".
package struct TodayProgress: Sendable, Hashable {
    /// Today's date in the request's zone.
    package let date: LocalDate
    /// Today's steps, or `nil` when there is no record for today yet (no data, not zero).
    package let steps: Int?
    /// The goal active today.
    package let goal: Int
    /// `completed` once today's steps meet today's goal; before that `in_progress`, `zero` or `no_data`.
    package let state: DayState
    /// `goal − steps`, never below 0; the whole goal when there is no record yet.
    package let stepsToGo: Int
    /// When the goal is met, the streak day today locked in (the badge number); otherwise `nil`.
    package let lockedInDay: Int?

    /// - Parameters:
    ///   - streaks: the streaks of the same history, whose current run holds today once today's goal is met.
    package init(today: LocalDate, history: StepHistory, goals: GoalLog, streaks: Streaks) {
        let goal = goals.goal(on: today)
        let steps = history[today]?.steps
        self.date = today
        self.steps = steps
        self.goal = goal
        self.state = DayState(steps: steps, goal: goal, trackingEnabled: true)
        self.stepsToGo = max(goal - (steps ?? 0), 0)
        self.lockedInDay = streaks.todayGoalMet ? streaks.currentCount : nil
    }

    /// `min(steps / goal, 1)`, or `nil` without a record.
    package var progress: Double? { steps.map { min(Double($0) / Double(goal), 1) } }
}
