import TallyCore
import TallyJSONCoding
import TallyProtocol

// The parts of a workout, checked in place (two years of training are ~12,000 sets).
//
// Each part has two checks that must agree: `isValid` answers whether the part is valid and builds nothing, and
// `check(at:)` names what is wrong. A list runs the second only on a part the first refuses. Why: a field path is
// an autoclosure whose captures (the enclosing paths, themselves closures) are retained and released at every
// call, which for every set of a long history would cost more than the checks themselves.
// `ValidationParityTests` holds the two to the same verdict.

extension SetParams {
    /// Whether `check(at:)` passes.
    var isValid: Bool { WorkoutBounds.reps.contains(reps) && WorkoutBounds.weight.contains(weight) }

    /// Checks the ranges.
    func check(at path: @autoclosure () -> FieldPath) throws(TallyError) {
        try WorkoutBounds.check(reps, WorkoutBounds.reps, path() + "reps")
        try WorkoutBounds.check(weight, WorkoutBounds.weight, path() + "weight")
    }
}

extension ExerciseParams {
    /// Whether `check(at:limits:)` passes.
    static func isValid(_ exercise: borrowing ExerciseParams, limits: RequestLimits) -> Bool {
        guard WorkoutBounds.fits(exercise.name, length: WorkoutBounds.nameLength),
            exercise.sets.count <= limits.maxListElements
        else { return false }
        return exercise.sets.withUnsafeBufferPointer { sets in
            for index in sets.indices where !sets[index].isValid { return false }
            return true
        }
    }

    /// Checks the name, the list limit and every set, without converting anything.
    func check(at path: @autoclosure () -> FieldPath, limits: RequestLimits) throws(TallyError) {
        try WorkoutBounds.check(name, length: WorkoutBounds.nameLength, path() + "name")
        try WorkoutBounds.check(count: sets.count, limits, path() + "sets", unit: "sets")
        for index in sets.indices where !sets[index].isValid {
            try sets[index].check(at: (path() + "sets").index(index))
        }
    }
}

extension PlanParams {
    /// Whether `check(at:)` passes.
    var isValid: Bool {
        (id.map { WorkoutBounds.fits($0, length: WorkoutBounds.idLength) } ?? true)
            && (name.map { WorkoutBounds.fits($0, length: WorkoutBounds.nameLength) } ?? true)
            && WorkoutBounds.planWeeks.contains(weeks)
    }

    /// Checks the ids, the name and the length.
    func check(at path: @autoclosure () -> FieldPath) throws(TallyError) {
        if let id { try WorkoutBounds.check(id, length: WorkoutBounds.idLength, path() + "id") }
        if let name { try WorkoutBounds.check(name, length: WorkoutBounds.nameLength, path() + "name") }
        try WorkoutBounds.check(weeks, WorkoutBounds.planWeeks, path() + "weeks")
    }
}
