import TallyCore
import TallyProtocol

// The parts of a workout, checked in place (two years of training are ~12,000 sets).

extension SetParams {
    /// Checks the ranges.
    func check(at path: @autoclosure () -> FieldPath) throws(TallyError) {
        try WorkoutBounds.check(reps, WorkoutBounds.reps, path() + "reps")
        try WorkoutBounds.check(weight, WorkoutBounds.weight, path() + "weight")
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
}

extension PlanParams {
    /// Checks the ids, the name and the length.
    func check(at path: @autoclosure () -> FieldPath) throws(TallyError) {
        if let id { try WorkoutBounds.check(id, length: WorkoutBounds.idLength, path() + "id") }
        if let name { try WorkoutBounds.check(name, length: WorkoutBounds.nameLength, path() + "name") }
        try WorkoutBounds.check(weeks, WorkoutBounds.planWeeks, path() + "weeks")
    }
}
