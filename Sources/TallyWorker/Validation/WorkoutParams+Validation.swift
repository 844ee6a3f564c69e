import TallyCore
import TallyJSONCoding
import TallyProtocol

extension WorkoutParams {
    /// Whether `check(at:limits:)` passes (see ExerciseParams+Validation.swift for why both).
    func isValid(limits: RequestLimits) -> Bool {
        guard WorkoutBounds.fits(id, length: WorkoutBounds.idLength),
            WorkoutBounds.fits(name, length: WorkoutBounds.nameLength),
            templateID.map({ WorkoutBounds.fits($0, length: WorkoutBounds.idLength) }) ?? true,
            dayName.map({ WorkoutBounds.fits($0, length: WorkoutBounds.nameLength) }) ?? true,
            plan?.isValid ?? true, exercises.count <= limits.maxListElements
        else { return false }
        return exercises.withUnsafeBufferPointer { exercises in
            for index in exercises.indices where !ExerciseParams.isValid(exercises[index], limits: limits) {
                return false
            }
            return true
        }
    }

    /// Checks every field, without converting anything.
    func check(at path: @autoclosure () -> FieldPath, limits: RequestLimits) throws(TallyError) {
        try WorkoutBounds.check(id, length: WorkoutBounds.idLength, path() + CodingKeys.id)
        try WorkoutBounds.check(name, length: WorkoutBounds.nameLength, path() + CodingKeys.name)
        if let templateID {
            try WorkoutBounds.check(templateID, length: WorkoutBounds.idLength, path() + CodingKeys.templateID)
        }
        if let dayName {
            try WorkoutBounds.check(dayName, length: WorkoutBounds.nameLength, path() + CodingKeys.dayName)
        }
        if let plan { try plan.check(at: path() + CodingKeys.plan) }
        try WorkoutBounds.check(count: exercises.count, limits, path() + CodingKeys.exercises, unit: "exercises")
        for index in exercises.indices where !ExerciseParams.isValid(exercises[index], limits: limits) {
            try exercises[index].check(at: (path() + CodingKeys.exercises).index(index), limits: limits)
        }
    }

    /// Validates a whole list: the list limit, every workout, and no two workouts with one id.
    /// - Parameter elementsChecked: every workout is known to pass `isValid(limits:)` (read by a selective read,
    ///   which may have dropped exercises it checked): only what concerns the list as a whole is checked.
    package static func check(
        _ workouts: [WorkoutParams], at path: FieldPath, limits: RequestLimits, elementsChecked: Bool = false
    ) throws(TallyError) {
        try limits.check(workouts.count, at: path, unit: "workouts")
        // By index rather than by element throughout: iterating an array of these copies each one out (seven
        // reference-counted fields), which costs more than checking it.
        for index in workouts.indices where !elementsChecked && !workouts[index].isValid(limits: limits) {
            try workouts[index].check(at: path.index(index), limits: limits)
        }
        try WorkoutBounds.checkUnique(workouts.indices.lazy.map { workouts[$0].id }, at: path, noun: "workout")
    }

    /// The path of the completion time of `params.workouts[index]`, for errors about it.
    static func completionPath(_ index: Int) -> FieldPath {
        FieldPath.params.key("workouts").index(index) + CodingKeys.completedAt
    }
}
