import TallyCalendar
import TallyCore
import TallyProtocol

// One workout as `workout.day` lists it and `workout.detail` shows it, built from TallyCore's drill-down.

extension WorkoutDay.Workout {
    /// The workout of `item` on `date`: completion in the zone's local time, volumes to 2 decimals in the item's
    /// unit, "Week Y of Z" and "Logged N times".
    init(_ item: WorkoutDayDetail.Item, date: LocalDate, calendar: ZoneCalendar) {
        let workout = item.workout
        self.init(
            id: workout.id, name: workout.name, dayName: workout.cardName,
            completedAt: Timestamp(workout.completedAt.instant, offset: calendar.utcOffset(at: workout.completedAt.instant)),
            templateID: workout.templateID, timesLogged: item.templateTimesLogged,
            plan: workout.plan.map { WorkoutDay.PlanProgress($0, week: item.planWeek) },
            totalVolume: FigureRounding.rounded(item.volume.total, places: 2), setCount: item.volume.setCount,
            bodyweightSetCount: item.volume.bodyweightSetCount,
            exercises: item.volume.exercises.map(WorkoutDay.Exercise.init))
    }
}

extension WorkoutDay.PlanProgress {
    init(_ plan: PlanParams, week: Int?) {
        self.init(id: plan.id, name: plan.name, startDate: plan.startDate, weeks: plan.weeks, week: week)
    }
}

extension WorkoutDay.Exercise {
    /// The exercise's volume and weights to 2 decimals; weights distinct as shown, so 45.36 kg logged once in kg
    /// and once as 100 lb appear once.
    init(_ exercise: ExerciseVolume) {
        var weights: [Double] = []
        for weight in exercise.weights {
            let shown = FigureRounding.rounded(weight, places: 2)
            if weights.last != shown { weights.append(shown) }
        }
        self.init(
            name: exercise.name, volume: FigureRounding.rounded(exercise.volume, places: 2), weights: weights,
            setCount: exercise.setCount, bodyweightSetCount: exercise.bodyweightSetCount)
    }
}
