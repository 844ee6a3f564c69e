import TallyCalendar
import TallyProtocol

/// Today's card of the streak sheet: either "X to go" toward today's goal, or "Day N locked in".
public struct TodayProgress: Sendable, Hashable {
    /// Today's date in the request's zone.
    public let date: LocalDate
    /// Today's steps, or `nil` when there is no record for today yet (no data, not zero).
    public let steps: Int?
    /// The goal active today.
    public let goal: Int
    /// `completed` once today's steps meet today's goal; before that `in_progress`, `zero` or `no_data`.
    public let state: DayState
    /// `goal − steps`, never below 0; the whole goal when there is no record yet.
    public let stepsToGo: Int
    /// When the goal is met, the streak day today locked in (the badge number); otherwise `nil`.
    public let lockedInDay: Int?

    /// - Parameters:
    ///   - streaks: the streaks of the same history, whose current run holds today once today's goal is met.
    public init(today: LocalDate, history: StepHistory, goals: GoalLog, streaks: Streaks) {
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
    public var progress: Double? { steps.map { min(Double($0) / Double(goal), 1) } }
}
