import TallyCalendar

/// `workout.day`: the drill-down of one local date: its workouts with volumes per workout and per exercise,
/// the weights used, "Week Y of Z" and "Logged N times". Served by `tally.workout`.
public enum WorkoutDay: TallyMethod {
    public static let name = "workout.day"
    public static let service = TallyService.workout

    /// The time frame, the date, the reporting unit and the whole workout history, all flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        /// The local date drilled into.
        public var date: LocalDate
        /// The unit volumes and weights are reported in; default kg.
        public var unit: WeightUnit
        /// Every workout the client has (default none): the day's workouts are picked from it, and all of them count
        /// towards template usage.
        public var workouts: [WorkoutParams]

        public init(
            time: RequestTime, date: LocalDate, unit: WeightUnit = .kilogram, workouts: [WorkoutParams] = []
        ) {
            self.time = time
            self.date = date
            self.unit = unit
            self.workouts = workouts
        }

        enum CodingKeys: String, CodingKey {
            case date, unit, workouts
        }

        public init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            date = try container.decode(LocalDate.self, forKey: .date)
            unit = try container.decodeIfPresent(WeightUnit.self, forKey: .unit) ?? .kilogram
            workouts = try container.decodeIfPresent([WorkoutParams].self, forKey: .workouts) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(date, forKey: .date)
            try container.encode(unit, forKey: .unit)
            try container.encode(workouts, forKey: .workouts)
        }
    }
}
