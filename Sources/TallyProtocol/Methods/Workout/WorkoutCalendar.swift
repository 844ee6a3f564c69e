import TallyCalendar
import TallyJSONCoding

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

extension WorkoutCalendar.Params: JSONDirectDecodable {
    /// The time frame, `month`, `types` and the three activity lists read directly.
    public init?(direct cursor: inout JSONCursor) {
        var time = RequestTime.DirectMembers()
        var month: YearMonth?
        var types: [ActivityType]?
        var workouts: [WorkoutParams]?
        var stretches: [StretchParams]?
        var meditations: [MeditationParams]?
        let read = cursor.object { key, cursor in
            if let read = time.read(key, &cursor) { return read }
            if key.is("workouts"), workouts == nil {
                workouts = cursor.array(of: WorkoutParams.self)
                return workouts != nil
            }
            if key.is("stretches"), stretches == nil {
                stretches = cursor.array(of: StretchParams.self)
                return stretches != nil
            }
            if key.is("meditations"), meditations == nil {
                meditations = cursor.array(of: MeditationParams.self)
                return meditations != nil
            }
            if key.is("month"), month == nil {
                month = cursor.string().flatMap { try? YearMonth(parsing: $0) }
                return month != nil
            }
            if key.is("types"), types == nil {
                types = cursor.array({ $0.name(of: ActivityType.self) })
                return types != nil
            }
            return false
        }
        guard read, let time = time.value else { return nil }
        self.init(
            time: time, month: month, types: types, workouts: workouts ?? [], stretches: stretches ?? [],
            meditations: meditations ?? [])
    }
}
