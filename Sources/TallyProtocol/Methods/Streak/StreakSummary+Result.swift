import TallyCalendar

extension StreakSummary {
    /// Whether streaks are offered.
    public enum Status: String, Codable, Sendable, Hashable {
        /// Goal tracking is on: every section is present.
        case active
        /// Goal tracking (`goal_tracking_enabled`) is off: streaks are not offered and only `status` and `as_of`
        /// are present. Not a streak of 0, which would read as "broken".
        case goalTrackingOff = "goal_tracking_off"
    }

    /// The answer: `status`, `as_of`, and with status `active` the sections of the streak sheet.
    public struct Result: Codable, Sendable, Hashable {
        public var status: Status
        /// Today in the request's zone: the day the answer was computed for.
        public var asOf: LocalDate
        /// The current streak (`current_streak`, as in `workout.calendar`).
        public var currentStreak: CurrentStreakResult?
        /// The best streak over the whole history.
        public var bestStreak: BestStreakResult?
        public var today: TodayResult?
        public var milestones: MilestonesResult?
        public var heatmap: HeatmapResult?
        /// How many records were dated after today and left out.
        public var futureRecordsIgnored: Int?

        public init(
            status: Status, asOf: LocalDate, currentStreak: CurrentStreakResult? = nil,
            bestStreak: BestStreakResult? = nil,
            today: TodayResult? = nil, milestones: MilestonesResult? = nil, heatmap: HeatmapResult? = nil,
            futureRecordsIgnored: Int? = nil
        ) {
            self.status = status
            self.asOf = asOf
            self.currentStreak = currentStreak
            self.bestStreak = bestStreak
            self.today = today
            self.milestones = milestones
            self.heatmap = heatmap
            self.futureRecordsIgnored = futureRecordsIgnored
        }

        /// Sections that do not apply (all but `status` and `as_of` with goal tracking off) are left out, not null.
        enum CodingKeys: String, JSONOmittingNilMembers {
            case status, today, milestones, heatmap
            case asOf = "as_of"
            case currentStreak = "current_streak"
            case bestStreak = "best_streak"
            case futureRecordsIgnored = "future_records_ignored"
        }
    }
}
