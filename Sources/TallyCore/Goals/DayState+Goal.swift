import TallyProtocol

extension DayState {
    /// The state of a day up to today: the seed's colour rules, plus the three facts they keep apart: no record
    /// (*no data*), a record of 0 steps (*zero*) and a date after today (*future*, which callers decide).
    /// - Parameters:
    ///   - steps: the day's steps, `nil` without a record.
    ///   - goal: the goal in force that day.
    ///   - trackingEnabled: goal tracking (`enableDailyStepGoal`); off, a met goal is `full`, not `completed`.
    package init(steps: Int?, goal: Int, trackingEnabled: Bool) {
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
