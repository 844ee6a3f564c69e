import TallyCalendar
import TallyCore

extension WorkoutDetail {
    /// One workout with its local date, in the shape `workout.day` lists it.
    public struct Result: Codable, Sendable, Hashable {
        /// The workout's local date in the request's zone: the day `workout.day` lists it on.
        public var date: LocalDate
        /// Today in the request's zone.
        public var asOf: LocalDate
        public var unit: WeightUnitParam
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
            _ item: WorkoutDayDetail.Item, date: LocalDate, unit: WeightUnit, asOf: LocalDate,
            futureWorkoutsIgnored: Int, calendar: ZoneCalendar
        ) {
            self.date = date
            self.asOf = asOf
            self.unit = WeightUnitParam(unit)
            self.workout = WorkoutDay.Workout(item, date: date, calendar: calendar)
            self.futureWorkoutsIgnored = futureWorkoutsIgnored
        }
    }
}
