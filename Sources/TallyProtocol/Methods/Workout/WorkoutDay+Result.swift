import TallyCalendar

extension WorkoutDay {
    /// The day's workouts in completion order, with volumes in `unit` rounded to 2 decimals.
    public struct Result: Codable, Sendable, Hashable {
        public var date: LocalDate
        /// Today in the request's zone.
        public var asOf: LocalDate
        public var unit: WeightUnit
        /// Each with "Logged N times" as `times_logged` (one place for it, beside the workout that shows it).
        public var workouts: [Workout]
        /// Workouts of the history that are future (after now, or dated after today): neither on a day nor logged.
        public var futureWorkoutsIgnored: Int

        enum CodingKeys: String, CodingKey {
            case date, unit, workouts
            case asOf = "as_of"
            case futureWorkoutsIgnored = "future_workouts_ignored"
        }

        public init(
            date: LocalDate, asOf: LocalDate, unit: WeightUnit, workouts: [Workout], futureWorkoutsIgnored: Int
        ) {
            self.date = date
            self.asOf = asOf
            self.unit = unit
            self.workouts = workouts
            self.futureWorkoutsIgnored = futureWorkoutsIgnored
        }
    }

    /// One workout of the day.
    public struct Workout: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
        /// The plan day's name, or the workout's name when it has none (as on the calendar card).
        public var dayName: String
        /// The completion instant in the request zone's local time.
        public var completedAt: Timestamp
        public var templateID: String?
        /// "Logged N times": workouts of the history up to now from the same template; null without a template.
        public var timesLogged: Int?
        /// The plan and the week this day falls in; null without a plan.
        public var plan: PlanProgress?
        /// Σ reps × weight over every set, in the result's unit.
        public var totalVolume: Double
        public var setCount: Int
        public var bodyweightSetCount: Int
        public var exercises: [Exercise]

        enum CodingKeys: String, CodingKey {
            case id, name
            case dayName = "day_name"
            case completedAt = "completed_at"
            case templateID = "template_id"
            case timesLogged = "times_logged"
            case plan
            case totalVolume = "total_volume"
            case setCount = "set_count"
            case bodyweightSetCount = "bodyweight_set_count"
            case exercises
        }

        public init(
            id: String, name: String, dayName: String, completedAt: Timestamp, templateID: String?, timesLogged: Int?,
            plan: PlanProgress?, totalVolume: Double, setCount: Int, bodyweightSetCount: Int, exercises: [Exercise]
        ) {
            self.id = id
            self.name = name
            self.dayName = dayName
            self.completedAt = completedAt
            self.templateID = templateID
            self.timesLogged = timesLogged
            self.plan = plan
            self.totalVolume = totalVolume
            self.setCount = setCount
            self.bodyweightSetCount = bodyweightSetCount
            self.exercises = exercises
        }
    }

    /// "Week Y of Z" of a workout's plan.
    public struct PlanProgress: Codable, Sendable, Hashable {
        public var id: String?
        public var name: String?
        public var startDate: LocalDate
        /// Z: the plan's length in weeks.
        public var weeks: Int
        /// Y: the plan week of the day, 1...weeks; null before the plan's start.
        public var week: Int?

        enum CodingKeys: String, CodingKey {
            case id, name
            case startDate = "start_date"
            case weeks, week
        }

        public init(id: String?, name: String?, startDate: LocalDate, weeks: Int, week: Int?) {
            self.id = id
            self.name = name
            self.startDate = startDate
            self.weeks = weeks
            self.week = week
        }
    }

    /// One exercise of a workout.
    public struct Exercise: Codable, Sendable, Hashable {
        public var name: String
        /// Σ reps × weight over its sets, in the result's unit.
        public var volume: Double
        /// Distinct weights used, ascending, in the result's unit, 0 for bodyweight; distinct as shown (to 2
        /// decimals), so 45.36 kg logged once in kg and once as 100 lb appears once.
        public var weights: [Double]
        public var setCount: Int
        public var bodyweightSetCount: Int

        enum CodingKeys: String, CodingKey {
            case name, volume, weights
            case setCount = "set_count"
            case bodyweightSetCount = "bodyweight_set_count"
        }

        public init(name: String, volume: Double, weights: [Double], setCount: Int, bodyweightSetCount: Int) {
            self.name = name
            self.volume = volume
            self.weights = weights
            self.setCount = setCount
            self.bodyweightSetCount = bodyweightSetCount
        }
    }
}
