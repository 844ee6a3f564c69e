import TallyJSONCoding

/// `workout.detail`: one workout, asked for by its id: its local date and the drill-down `workout.day` shows for
/// it ("Week Y of Z", "Logged N times", volumes). Served by `tally.workout`.
///
/// A client that holds a workout id (from its own store, or an activity's `source_id` on the calendar) need not work
/// out the workout's local date in the request's zone to ask `workout.day` for it: that is Tally's job.
public enum WorkoutDetail: TallyMethod {
    public static let name = "workout.detail"
    public static let service = TallyService.workout

    /// The time frame, the workout's id, and the unit and history (`WorkoutHistoryParams`), all flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        /// The id of the workout, as in `workouts[].id` (an activity's `source_id`, not its `workout-…` id).
        public var workoutID: String
        /// The unit and every workout the client has: the one asked for is found in it.
        public var history: WorkoutHistoryParams

        public init(
            time: RequestTime, workoutID: String, unit: WeightUnit = .kilogram, workouts: [WorkoutParams] = []
        ) {
            self.time = time
            self.workoutID = workoutID
            self.history = WorkoutHistoryParams(unit: unit, workouts: workouts)
        }

        enum CodingKeys: String, CodingKey {
            case workoutID = "workout_id"
        }

        // Decoded in the order that decides which error a request gets: time frame, id, then unit and history.
        public init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            workoutID = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .workoutID)
            history = try WorkoutHistoryParams(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(workoutID, forKey: .workoutID)
            try history.encode(to: encoder)
        }
    }
}

extension WorkoutDetail.Params: JSONDirectDecodable {
    /// The time frame, `workout_id`, `unit` and `workouts` read directly.
    public init?(direct cursor: inout JSONCursor) {
        var time = RequestTime.DirectMembers()
        var history = WorkoutHistoryParams.DirectMembers()
        var workoutID: String?
        let read = cursor.object { key, cursor in
            if let read = history.read(key, &cursor) ?? time.read(key, &cursor) { return read }
            guard key.is("workout_id"), workoutID == nil else { return false }
            workoutID = cursor.string()
            return workoutID != nil
        }
        guard read, let time = time.value, let workoutID else { return nil }
        let workouts = history.value
        self.init(time: time, workoutID: workoutID, unit: workouts.unit, workouts: workouts.workouts)
    }
}
