import TallyCalendar

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
