import TallyCalendar

extension StreakSummary {
    /// Today's card: "X to go" toward today's goal, or "Day N locked in".
    public struct TodayResult: Codable, Sendable, Hashable {
        public var date: LocalDate
        /// Null when there is no record for today (no data, not zero).
        public var steps: Int?
        /// The goal active today.
        public var goal: Int
        /// `min(steps / goal, 1)` rounded to 4 decimals; null without a record.
        public var progress: Double?
        /// `completed` once today's goal is met, else `in_progress`, `zero` or `no_data`: the same states as every
        /// other day.
        public var state: DayState
        /// `goal − steps`, never below 0; the whole goal without a record.
        public var stepsToGo: Int
        /// With the goal met, the streak day today locked in (equal to `current_streak.days`); otherwise null.
        public var lockedInDay: Int?

        public init(
            date: LocalDate, steps: Int?, goal: Int, progress: Double?, state: DayState, stepsToGo: Int,
            lockedInDay: Int?
        ) {
            self.date = date
            self.steps = steps
            self.goal = goal
            self.progress = progress
            self.state = state
            self.stepsToGo = stepsToGo
            self.lockedInDay = lockedInDay
        }

        enum CodingKeys: String, CodingKey {
            case date, steps, goal, progress, state
            case stepsToGo = "steps_to_go"
            case lockedInDay = "locked_in_day"
        }
    }
}
