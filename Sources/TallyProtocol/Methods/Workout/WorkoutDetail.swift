import TallyCore

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
        public var unit: WeightUnitParam
        /// Every workout the client has (default none): the one asked for is found in it, and all but the future
        /// ones count towards "Logged N times".
        public var workouts: [WorkoutParams]

        public init(
            time: RequestTime, workoutID: String, unit: WeightUnit = .kilogram, workouts: [WorkoutParams] = []
        ) {
            self.time = time
            self.workoutID = workoutID
            self.unit = WeightUnitParam(unit)
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
            unit = try container.decodeIfPresent(WeightUnitParam.self, forKey: .unit) ?? WeightUnitParam(.kilogram)
            workouts = try container.decodeIfPresent([WorkoutParams].self, forKey: .workouts) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(workoutID, forKey: .workoutID)
            try container.encode(unit, forKey: .unit)
            try container.encode(workouts, forKey: .workouts)
        }

        /// Validates the history, finds the workout and computes its drill-down on its local date.
        /// - Throws: `invalid_params` naming the field (ranges, duplicate ids naming both places, a `now` or a
        ///   completion whose local date is not a supported date; `params.workout_id` with the id in
        ///   `details.value` when no workout has it, or when that workout is future); `payload_too_large` for a
        ///   list over `limits`.
        public func result(limits: RequestLimits) throws(TallyError) -> Result {
            let reference = try time.checkedReferenceDay()
            let field = FieldPath.params + "workout_id"
            try WorkoutBounds.check(workoutID, length: WorkoutBounds.idLength, field)
            try WorkoutParams.check(workouts, at: .params + "workouts", limits: limits)
            let calendar = time.calendar
            // Every completion must fall on a supported date, as in the other workout methods; only those within 18
            // hours of the calendar's ends can fail, so the others cost no zone lookup.
            for index in workouts.indices
            where ZoneCalendar.mayFallOutsideSupportedDates(workouts[index].completedAt.instant) {
                _ = try calendar.requestDate(
                    of: workouts[index].completedAt.instant,
                    at: FieldPath.params.key("workouts").index(index) + "completed_at")
            }
            guard let index = workouts.firstIndex(where: { $0.id == workoutID }) else {
                throw .invalidParams(field, "no workout of params.workouts has this id", value: workoutID)
            }
            let instant = workouts[index].completedAt.instant
            guard !reference.isFuture(instant, in: calendar) else {
                throw .invalidParams(
                    field,
                    "the workout is completed after now (today is \(reference.today)): future workouts are ignored",
                    conflictsWith: FieldPath.params.key("workouts").index(index) + "completed_at", value: workoutID)
            }
            let past = workouts.indices.filter { !reference.isFuture(workouts[$0].completedAt.instant, in: calendar) }
            let usage = TemplateUsage(templateIDs: past.compactMap { workouts[$0].templateID })
            let date = calendar.localDate(of: instant)
            let item = WorkoutDayDetail.Item(workouts[index].workout, on: date, unit: unit.unit, usage: usage)
            return Result(
                item, date: date, unit: unit.unit, asOf: reference.today,
                futureWorkoutsIgnored: workouts.count - past.count, calendar: calendar)
        }
    }
}
