import TallyCore
import TallyProtocol

// The parts of a workout, checked in place and converted only when a method needs them (two years of training are
// ~12,000 sets; a day has a few hundred at most).

extension SetParams {
    /// Checks the ranges.
    func check(at path: @autoclosure () -> FieldPath) throws(TallyError) {
        try WorkoutBounds.check(reps, WorkoutBounds.reps, path() + "reps")
        try WorkoutBounds.check(weight, WorkoutBounds.weight, path() + "weight")
    }

    /// The core set; call `check(at:)` first.
    var set: WorkoutSet {
        // `-0` passes the range check; store +0 so that no "-0" reaches a response.
        WorkoutSet(reps: reps, weight: weight == 0 ? 0 : weight, unit: TallyCore.WeightUnit(unit))
    }
}

extension ExerciseParams {
    /// Checks the name, the list limit and every set, without converting anything.
    func check(at path: @autoclosure () -> FieldPath, limits: RequestLimits) throws(TallyError) {
        try WorkoutBounds.check(name, length: WorkoutBounds.nameLength, path() + "name")
        try WorkoutBounds.check(count: sets.count, limits, path() + "sets", unit: "sets")
        for index in sets.indices {
            try sets[index].check(at: (path() + "sets").index(index))
        }
    }

    /// The core exercise; call `check(at:limits:)` first.
    var exercise: PerformedExercise { PerformedExercise(name: name, sets: sets.map(\.set)) }
}

extension PlanParams {
    /// Checks the ids, the name and the length.
    func check(at path: @autoclosure () -> FieldPath) throws(TallyError) {
        if let id { try WorkoutBounds.check(id, length: WorkoutBounds.idLength, path() + "id") }
        if let name { try WorkoutBounds.check(name, length: WorkoutBounds.nameLength, path() + "name") }
        try WorkoutBounds.check(weeks, WorkoutBounds.planWeeks, path() + "weeks")
    }

    /// The core plan; call `check(at:)` first.
    var plan: WorkoutPlan { WorkoutPlan(id: id, name: name, startDate: startDate, weeks: weeks) }
}
