import TallyCalendar
import TallyCore

extension WorkoutDay {
    /// The day's workouts in completion order, with volumes in `unit` rounded to 2 decimals.
    public struct Result: Codable, Sendable, Hashable {
        public var date: LocalDate
        /// Today in the request's zone.
        public var asOf: LocalDate
        public var unit: WeightUnitParam
        /// Each with "Logged N times" as `times_logged` (one place for it, beside the workout that shows it).
        public var workouts: [Workout]
        /// Workouts of the history that are future (after now, or dated after today): neither on a day nor logged.
        public var futureWorkoutsIgnored: Int

        enum CodingKeys: String, CodingKey {
            case date, unit, workouts
            case asOf = "as_of"
            case futureWorkoutsIgnored = "future_workouts_ignored"
        }

        public init(_ core: WorkoutDayDetail, asOf: LocalDate, futureWorkoutsIgnored: Int, calendar: ZoneCalendar) {
            date = core.date
            self.asOf = asOf
            unit = WeightUnitParam(core.unit)
            workouts = core.items.map { Workout($0, date: core.date, calendar: calendar) }
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

        init(_ item: WorkoutDayDetail.Item, date: LocalDate, calendar: ZoneCalendar) {
            let workout = item.workout
            id = workout.id
            name = workout.name
            dayName = workout.cardName
            completedAt = Timestamp(workout.completedAt, offset: calendar.utcOffset(at: workout.completedAt))
            templateID = workout.templateID
            timesLogged = item.templateTimesLogged
            plan = workout.plan.map { PlanProgress($0, week: item.planWeek) }
            totalVolume = TallyJSON.rounded(item.volume.total, places: 2)
            setCount = item.volume.setCount
            bodyweightSetCount = item.volume.bodyweightSetCount
            exercises = item.volume.exercises.map(Exercise.init)
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

        init(_ plan: WorkoutPlan, week: Int?) {
            id = plan.id
            name = plan.name
            startDate = plan.startDate
            weeks = plan.weeks
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

        init(_ core: ExerciseVolume) {
            var weights: [Double] = []
            for weight in core.weights {
                let shown = TallyJSON.rounded(weight, places: 2)
                if weights.last != shown { weights.append(shown) }
            }
            name = core.name
            volume = TallyJSON.rounded(core.volume, places: 2)
            self.weights = weights
            setCount = core.setCount
            bodyweightSetCount = core.bodyweightSetCount
        }
    }
}
