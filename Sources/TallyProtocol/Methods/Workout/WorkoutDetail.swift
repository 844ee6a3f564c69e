/// `workout.detail`: one workout, asked for by its id: its local date and the drill-down `workout.day` shows for
/// it ("Week Y of Z", "Logged N times", volumes). Served by `tally.workout`.
///
/// A client that holds a workout id (from its own store, or an activity's `source_id` on the calendar) need not work
/// out the workout's local date in the request's zone to ask `workout.day` for it: that is Tally's job.
public enum WorkoutDetail: TallyMethod {
    public static let name = "workout.detail"
    public static let service = TallyService.workout

    /// The time frame, the workout's id, the reporting unit and the whole workout history, all flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        /// The id of the workout, as in `workouts[].id` (an activity's `source_id`, not its `workout-…` id).
        public var workoutID: String
        /// The unit volumes and weights are reported in; default kg.
        public var unit: WeightUnit
        /// Every workout the client has (default none): the one asked for is found in it, and all but the future
        /// ones count towards "Logged N times".
        public var workouts: [WorkoutParams]

        public init(
            time: RequestTime, workoutID: String, unit: WeightUnit = .kilogram, workouts: [WorkoutParams] = []
        ) {
            self.time = time
            self.workoutID = workoutID
            self.unit = unit
            self.workouts = workouts
        }

        enum CodingKeys: String, CodingKey {
            case unit, workouts
            case workoutID = "workout_id"
        }

        public init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            workoutID = try container.decode(String.self, forKey: .workoutID)
            unit = try container.decodeIfPresent(WeightUnit.self, forKey: .unit) ?? .kilogram
            workouts = try container.decodeIfPresent([WorkoutParams].self, forKey: .workouts) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(workoutID, forKey: .workoutID)
            try container.encode(unit, forKey: .unit)
            try container.encode(workouts, forKey: .workouts)
        }
    }
}
