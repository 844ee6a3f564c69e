import TallyCalendar

/// `workout.calendar`: one month of the activity calendar (workouts, stretches, meditations) with the marked
/// days, the current workout streak and how far the calendar can page. Served by `tally.workout`.
public enum WorkoutCalendar: TallyMethod {
    public static let name = "workout.calendar"
    public static let service = TallyService.workout

    /// The time frame, the month, the type filter and the activity lists, all flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        /// The month shown; default the month of today.
        public var month: YearMonth?
        /// The types shown; default all three. Never empty.
        public var types: [ActivityType]?
        public var workouts: [WorkoutParams]
        public var stretches: [StretchParams]
        public var meditations: [MeditationParams]

        public init(
            time: RequestTime, month: YearMonth? = nil, types: [ActivityType]? = nil, workouts: [WorkoutParams] = [],
            stretches: [StretchParams] = [], meditations: [MeditationParams] = []
        ) {
            self.time = time
            self.month = month
            self.types = types
            self.workouts = workouts
            self.stretches = stretches
            self.meditations = meditations
        }

        enum CodingKeys: String, CodingKey {
            case month, types, workouts, stretches, meditations
        }

        public init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            month = try container.decodeIfPresent(YearMonth.self, forKey: .month)
            types = try container.decodeIfPresent([ActivityType].self, forKey: .types)
            workouts = try container.decodeIfPresent([WorkoutParams].self, forKey: .workouts) ?? []
            stretches = try container.decodeIfPresent([StretchParams].self, forKey: .stretches) ?? []
            meditations = try container.decodeIfPresent([MeditationParams].self, forKey: .meditations) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(month, forKey: .month)
            try container.encodeIfPresent(types, forKey: .types)
            try container.encode(workouts, forKey: .workouts)
            try container.encode(stretches, forKey: .stretches)
            try container.encode(meditations, forKey: .meditations)
        }
    }
}
