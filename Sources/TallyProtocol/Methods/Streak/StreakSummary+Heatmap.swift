import TallyCalendar
import TallyJSONCoding

extension StreakSummary {
    /// One heatmap cell.
    public struct HeatmapDayResult: Codable, Sendable, Hashable {
        public var date: LocalDate
        /// Null for no data.
        public var steps: Int?
        /// The goal active that day.
        public var goal: Int
        /// `completed`, `in_progress`, `zero` or `no_data`, as every day of every method (the heatmap needs goal
        /// tracking and ends today, so never `full` or `future`).
        public var state: DayState
        public var inCurrentStreak: Bool
        public var isToday: Bool
        /// `0.15 + steps / max_steps × 0.85` rounded to 4 decimals for days with steps > 0; null for zero and
        /// no-data days (grey, no colour ramp).
        public var intensity: Double?

        public init(
            date: LocalDate, steps: Int?, goal: Int, state: DayState, inCurrentStreak: Bool, isToday: Bool,
            intensity: Double?
        ) {
            self.date = date
            self.steps = steps
            self.goal = goal
            self.state = state
            self.inCurrentStreak = inCurrentStreak
            self.isToday = isToday
            self.intensity = intensity
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case date, steps, goal, state
            case inCurrentStreak = "in_current_streak"
            case isToday = "is_today"
            case intensity
        }
    }

    /// The 30-day heatmap: today and the 29 days before it, oldest first.
    public struct HeatmapResult: Codable, Sendable, Hashable {
        public var startDate: LocalDate
        public var endDate: LocalDate
        /// The most steps of a day in the window; null when no day of it has a record.
        public var maxSteps: Int?
        public var days: [HeatmapDayResult]
        public var grid: WeekGridResult

        public init(
            startDate: LocalDate, endDate: LocalDate, maxSteps: Int?, days: [HeatmapDayResult], grid: WeekGridResult
        ) {
            self.startDate = startDate
            self.endDate = endDate
            self.maxSteps = maxSteps
            self.days = days
            self.grid = grid
        }

        enum CodingKeys: String, CodingKey {
            case startDate = "start_date"
            case endDate = "end_date"
            case maxSteps = "max_steps"
            case days, grid
        }
    }
}

extension StreakSummary.HeatmapDayResult: JSONFastEncodable {
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The members, written directly (a heatmap is 30 of these in every streak answer).
    public func writeMembers(to object: inout JSONObjectWriter) throws {
        for key in Self.fastKeys.keys {
            switch key {
            case .date: object.string(key.stringValue, date.description)
            case .steps: object.int(key.stringValue, steps)
            case .goal: object.int(key.stringValue, goal)
            case .state: object.string(key.stringValue, state.rawValue)
            case .inCurrentStreak: object.bool(key.stringValue, inCurrentStreak)
            case .isToday: object.bool(key.stringValue, isToday)
            case .intensity: try object.double(key.stringValue, intensity)
            }
        }
    }
}
