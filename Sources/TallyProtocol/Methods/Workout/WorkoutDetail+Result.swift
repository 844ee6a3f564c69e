import TallyCalendar

extension WorkoutDetail {
    /// One workout with its local date, in the shape `workout.day` lists it.
    public struct Result: Codable, Sendable, Hashable {
        /// The workout's local date in the request's zone: the day `workout.day` lists it on.
        public var date: LocalDate
        /// Today in the request's zone.
        public var asOf: LocalDate
        public var unit: WeightUnit
        /// The workout as `workout.day` shows it: volumes, "Week Y of Z" on `date`, "Logged N times".
        public var workout: WorkoutDay.Workout
        /// Workouts of the history that are future: not logged, so not in `times_logged`.
        public var futureWorkoutsIgnored: Int

        enum CodingKeys: String, CodingKey {
            case date, unit, workout
            case asOf = "as_of"
            case futureWorkoutsIgnored = "future_workouts_ignored"
        }

        public init(
            date: LocalDate, asOf: LocalDate, unit: WeightUnit, workout: WorkoutDay.Workout, futureWorkoutsIgnored: Int
        ) {
            self.date = date
            self.asOf = asOf
            self.unit = unit
            self.workout = workout
            self.futureWorkoutsIgnored = futureWorkoutsIgnored
        }
    }
}
