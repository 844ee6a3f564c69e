/// How a day stands against its goal: one set of states for every day Tally shows (a calendar cell, a list row, a
/// chart bar, a heatmap cell, today's card), so that one client `switch` draws them all and no day carries a flag
/// that could disagree with its state.
///
/// The seed's colour rules, plus the three facts they keep apart: no record (*no data*), a record of 0 steps
/// (*zero*) and a date after today (*future*).
public enum DayState: String, Sendable, Hashable, CaseIterable {
    /// Steps ≥ the day's goal with goal tracking on: the "goal completed" colour.
    case completed
    /// 0 < steps < the day's goal: the "in progress" colour (tracking on or off).
    case inProgress = "in_progress"
    /// Steps ≥ the day's goal with goal tracking off: the "in progress" colour at full opacity, never "completed".
    case full
    /// A record with 0 steps: grey like no data, but the day was tracked.
    case zero
    /// No record for the date.
    case noData = "no_data"
    /// After today: drawn secondary and not selectable; records dated then are ignored.
    case future

    /// The state of a day up to today.
    /// - Parameters:
    ///   - steps: the day's steps, `nil` without a record.
    ///   - goal: the goal in force that day.
    ///   - trackingEnabled: goal tracking (`enableDailyStepGoal`); off, a met goal is `full`, not `completed`.
    public init(steps: Int?, goal: Int, trackingEnabled: Bool) {
        // Judged on the whole numbers, not on a ratio: the rounded figures on the wire agree with this.
        self =
            switch steps {
            case nil: .noData
            case 0?: .zero
            case let steps? where steps >= goal: trackingEnabled ? .completed : .full
            case _?: .inProgress
            }
    }
}
