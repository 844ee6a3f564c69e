import TallyCalendar
import TallyProtocol

/// The drill-down of one local day: its workouts with volumes, plan weeks and template usage.
package struct WorkoutDayDetail: Sendable {
    /// One workout as the drill-down shows it: volumes, "Week Y of Z" on its day, "Logged N times".
    package struct Item: Sendable, Hashable {
        package let workout: WorkoutParams
        /// Volumes in the day's reporting unit.
        package let volume: WorkoutVolume
        /// "Week Y of Z": the plan week of the day, `nil` without a plan or before the plan's start.
        package let planWeek: Int?
        /// How many workouts of the history up to now use this workout's template; `nil` without a template.
        package let templateTimesLogged: Int?

        /// The drill-down of `workout` on its local date `date`.
        /// - Parameter usage: template usage over the history up to now (future workouts are not "logged").
        package init(_ workout: WorkoutParams, on date: LocalDate, unit: WeightUnit, usage: TemplateUsage) {
            self.workout = workout
            self.volume = WorkoutVolume(workout, in: unit)
            self.planWeek = workout.plan?.week(on: date)
            self.templateTimesLogged = workout.templateID.map(usage.timesLogged)
        }
    }

    package let date: LocalDate
    package let unit: WeightUnit
    /// The day's workouts by completion instant; workouts completed at the same instant in the order given.
    package let items: [Item]

    /// Selects the workouts of local day `date` from the whole history, as of `reference`.
    /// - Parameters:
    ///   - workouts: every workout the client has; all but the future ones count towards template usage.
    ///   - calendar: the request's zone; each completion instant is bucketed once.
    ///   - reference: today (and now): future workouts (`ReferenceDay`'s rule) are neither on the day nor logged.
    package init(
        workouts: [WorkoutParams], date: LocalDate, unit: WeightUnit, calendar: ZoneCalendar,
        reference: ReferenceDay
    ) {
        let past = workouts.filter { !reference.isFuture($0.completedAt.instant, in: calendar) }
        self.init(workouts: past, usage: TemplateUsage(past), date: date, unit: unit, calendar: calendar)
    }

    /// Selects the workouts of local day `date` from `workouts`, with template usage counted over the history
    /// beforehand: `workouts` may then hold just the candidates for the day (in the history's order), none of them
    /// future.
    package init(
        workouts: [WorkoutParams], usage: TemplateUsage, date: LocalDate, unit: WeightUnit, calendar: ZoneCalendar
    ) {
        var positions: [Int] = []
        for (position, workout) in workouts.enumerated() where calendar.localDate(of: workout.completedAt.instant) == date {
            positions.append(position)
        }
        positions.sort { lhs, rhs in
            let (left, right) = (workouts[lhs].completedAt.instant, workouts[rhs].completedAt.instant)
            return left != right ? left < right : lhs < rhs
        }
        self.items = positions.map { Item(workouts[$0], on: date, unit: unit, usage: usage) }
        self.date = date
        self.unit = unit
    }
}
