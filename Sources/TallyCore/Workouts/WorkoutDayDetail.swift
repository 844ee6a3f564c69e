/// The drill-down of one local day: its workouts with volumes, plan weeks and template usage.
public struct WorkoutDayDetail: Sendable {
    /// One workout of the day.
    public struct Item: Sendable, Hashable {
        public let workout: PerformedWorkout
        /// Volumes in the day's reporting unit.
        public let volume: WorkoutVolume
        /// "Week Y of Z": the plan week of the day, `nil` without a plan or before the plan's start.
        public let planWeek: Int?
        /// How many workouts of the whole history use this workout's template; `nil` without a template.
        public let templateTimesLogged: Int?
    }

    public let date: LocalDate
    public let unit: WeightUnit
    /// The day's workouts by completion instant; workouts completed at the same instant in the order given.
    public let items: [Item]
    /// Usage counts of the templates the day's workouts use, over the whole history.
    public let templateUsage: [String: Int]

    /// Selects the workouts of local day `date` from the whole history.
    /// - Parameters:
    ///   - workouts: every workout the client has; all of them count towards template usage.
    ///   - calendar: the request's zone; each completion instant is bucketed once.
    public init(workouts: [PerformedWorkout], date: LocalDate, unit: WeightUnit, calendar: ZoneCalendar) {
        self.init(workouts: workouts, usage: TemplateUsage(workouts), date: date, unit: unit, calendar: calendar)
    }

    /// Selects the workouts of local day `date` from `workouts`, with template usage counted over the whole
    /// history beforehand: `workouts` may then hold just the candidates for the day (in the history's order).
    public init(
        workouts: [PerformedWorkout], usage: TemplateUsage, date: LocalDate, unit: WeightUnit, calendar: ZoneCalendar
    ) {
        var positions: [Int] = []
        for (position, workout) in workouts.enumerated() where calendar.localDate(of: workout.completedAt) == date {
            positions.append(position)
        }
        positions.sort { lhs, rhs in
            workouts[lhs].completedAt != workouts[rhs].completedAt
                ? workouts[lhs].completedAt < workouts[rhs].completedAt : lhs < rhs
        }
        var templateUsage: [String: Int] = [:]
        self.items = positions.map { position in
            let workout = workouts[position]
            let timesLogged = workout.templateID.map(usage.timesLogged)
            if let template = workout.templateID, let timesLogged { templateUsage[template] = timesLogged }
            return Item(
                workout: workout, volume: WorkoutVolume(workout, in: unit), planWeek: workout.plan?.week(on: date),
                templateTimesLogged: timesLogged)
        }
        self.date = date
        self.unit = unit
        self.templateUsage = templateUsage
    }
}
