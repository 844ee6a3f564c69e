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
        var members = DirectMembers()
        var workouts: [WorkoutParams]?
        let read = cursor.object { key, cursor in
            if let read = time.read(key, &cursor) ?? members.read(key, &cursor) { return read }
            guard key.is("workouts"), workouts == nil else { return false }
            workouts = cursor.array(of: WorkoutParams.self)
            return workouts != nil
        }
        guard read, let time = time.value else { return nil }
        self.init(time: time, workouts: workouts ?? [], members)
    }

    /// The params of `time`, `workouts` and the other members as read.
    public init(time: RequestTime, workouts: [WorkoutParams], _ members: DirectMembers) {
        self.init(
            time: time, month: members.month, types: members.types, workouts: workouts,
            stretches: members.stretches ?? [], meditations: members.meditations ?? [])
    }

    /// `month`, `types`, `stretches` and `meditations` as a direct read meets them (the frame and `workouts` are
    /// read apart: a worker reads the workouts its own way).
    public struct DirectMembers {
        public private(set) var month: YearMonth?
        var types: [ActivityType]?
        var stretches: [StretchParams]?
        var meditations: [MeditationParams]?

        public init() {}

        /// Reads the value of `key` when it is one of these: `true` once read, `false` when it cannot be (or was
        /// read before), `nil` for another key.
        public mutating func read(_ key: JSONKeyBytes, _ cursor: inout JSONCursor) -> Bool? {
            if key.is("stretches") {
                guard stretches == nil else { return false }
                stretches = cursor.array(of: StretchParams.self)
                return stretches != nil
            }
            if key.is("meditations") {
                guard meditations == nil else { return false }
                meditations = cursor.array(of: MeditationParams.self)
                return meditations != nil
            }
            if key.is("month") {
                guard month == nil else { return false }
                month = cursor.string().flatMap { try? YearMonth(parsing: $0) }
                return month != nil
            }
            guard key.is("types") else { return nil }
            guard types == nil else { return false }
            types = cursor.array({ $0.name(of: ActivityType.self) })
            return types != nil
        }
    }
}
