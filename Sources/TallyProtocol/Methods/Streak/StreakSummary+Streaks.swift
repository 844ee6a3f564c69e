import TallyCalendar
import TallyCore

extension StreakSummary {
    /// The current streak as the badge shows it. Without one: days 0, total 0, dates and average null.
    public struct CurrentStreakResult: Codable, Sendable, Hashable {
        /// The badge number, a streak's length in days (as `workout.calendar`'s streak says it): yesterday's run,
        /// plus today once today's goal is met.
        public var days: Int
        public var startDate: LocalDate?
        /// Today when today's goal is met, otherwise yesterday.
        public var endDate: LocalDate?
        /// Mean steps per day of the streak, rounded to 2 decimals; null without a streak.
        public var averageSteps: Double?
        /// The exact sum of the streak's steps.
        public var totalSteps: Int
        /// Whether today's goal is met (and so today is the streak's last day).
        public var includesToday: Bool

        public init(_ streaks: Streaks) {
            let run = streaks.current
            days = run?.count ?? 0
            startDate = run?.start
            endDate = run?.end
            averageSteps = run.map { TallyJSON.rounded($0.averageSteps, places: 2) }
            totalSteps = run?.totalSteps ?? 0
            includesToday = streaks.todayGoalMet
        }

        enum CodingKeys: String, CodingKey {
            case days
            case startDate = "start_date"
            case endDate = "end_date"
            case averageSteps = "average_steps"
            case totalSteps = "total_steps"
            case includesToday = "includes_today"
        }
    }

    /// The longest streak ever (the more recent of equal ones). When no day ever met its goal: days 0, total 0,
    /// dates and average null.
    public struct BestStreakResult: Codable, Sendable, Hashable {
        /// Its length in days.
        public var days: Int
        public var startDate: LocalDate?
        public var endDate: LocalDate?
        /// Rounded to 2 decimals; null without a streak.
        public var averageSteps: Double?
        public var totalSteps: Int
        /// Whether the best streak is the current one.
        public var isCurrent: Bool

        public init(_ streaks: Streaks) {
            let run = streaks.best
            days = run?.count ?? 0
            startDate = run?.start
            endDate = run?.end
            averageSteps = run.map { TallyJSON.rounded($0.averageSteps, places: 2) }
            totalSteps = run?.totalSteps ?? 0
            isCurrent = streaks.bestIsCurrent
        }

        enum CodingKeys: String, CodingKey {
            case days
            case startDate = "start_date"
            case endDate = "end_date"
            case averageSteps = "average_steps"
            case totalSteps = "total_steps"
            case isCurrent = "is_current"
        }
    }
}
