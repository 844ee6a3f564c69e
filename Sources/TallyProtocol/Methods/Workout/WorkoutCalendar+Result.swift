import TallyCalendar
import TallyJSONCoding

extension WorkoutCalendar {

    /// What a card shows; only the members of the activity's type are present.
    public struct Summary: Codable, Sendable, Hashable {
        /// Workout: its name.
        public var name: String?
        /// Workout: the plan day's name, or the workout's name when it has none.
        public var dayName: String?
        /// Workout: exercises logged.
        public var exerciseCount: Int?
        /// Workout: sets logged over all exercises, bodyweight sets included.
        public var setCount: Int?
        /// Stretch: regions in the order logged.
        public var regions: [String]?
        /// Stretch and meditation: the session's length.
        public var durationSeconds: Int?

        /// Only the members of the activity's type are present.
        enum CodingKeys: String, JSONOmittingNilMembers {
            case name, regions
            case dayName = "day_name"
            case exerciseCount = "exercise_count"
            case setCount = "set_count"
            case durationSeconds = "duration_seconds"
        }

        /// A summary of the members given: those of one activity type (a workout's four, a stretch's two, a
        /// meditation's one). The others are `nil`, and are not written.
        public init(
            name: String? = nil, dayName: String? = nil, exerciseCount: Int? = nil, setCount: Int? = nil,
            regions: [String]? = nil, durationSeconds: Int? = nil
        ) {
            self.name = name
            self.dayName = dayName
            self.exerciseCount = exerciseCount
            self.setCount = setCount
            self.regions = regions
            self.durationSeconds = durationSeconds
        }
    }
}

extension WorkoutCalendar.Summary: JSONFastEncodable {
    /// The members present, in the order `encode(to:)` writes them (the order they are declared in), none as null.
    @usableFromInline package func writeMembers(to object: inout JSONObjectWriter) throws {
        if let name { object.string("name", name) }
        if let dayName { object.string("day_name", dayName) }
        if let exerciseCount { object.int("exercise_count", exerciseCount) }
        if let setCount { object.int("set_count", setCount) }
        if let regions { object.strings("regions", regions) }
        if let durationSeconds { object.int("duration_seconds", durationSeconds) }
    }
}
