import TallyCore
import TallyProtocol

extension WorkoutParams {
    /// Checks every field, without converting anything.
    func check(at path: @autoclosure () -> FieldPath, limits: RequestLimits) throws(TallyError) {
        try WorkoutBounds.check(id, length: WorkoutBounds.idLength, path() + "id")
        try WorkoutBounds.check(name, length: WorkoutBounds.nameLength, path() + "name")
        if let templateID {
            try WorkoutBounds.check(templateID, length: WorkoutBounds.idLength, path() + "template_id")
        }
        if let dayName { try WorkoutBounds.check(dayName, length: WorkoutBounds.nameLength, path() + "day_name") }
        if let plan { try plan.check(at: path() + "plan") }
        try WorkoutBounds.check(count: exercises.count, limits, path() + "exercises", unit: "exercises")
        for index in exercises.indices {
            try exercises[index].check(at: (path() + "exercises").index(index), limits: limits)
        }
    }

    /// Validates a whole list: the list limit, every workout, and no two workouts with one id.
    package static func check(
        _ workouts: [WorkoutParams], at path: FieldPath, limits: RequestLimits
    ) throws(TallyError) {
        try limits.check(workouts.count, at: path, unit: "workouts")
        // By index rather than by element throughout: iterating an array of these copies each one out (seven
        // reference-counted fields), which costs more than checking it.
        for index in workouts.indices {
            try workouts[index].check(at: path.index(index), limits: limits)
        }
        try WorkoutBounds.checkUnique(workouts.indices.lazy.map { workouts[$0].id }, at: path, noun: "workout")
    }

    /// The path of the completion time of `params.workouts[index]`, for errors about it.
    static func completionPath(_ index: Int) -> FieldPath {
        FieldPath.params.key("workouts").index(index) + "completed_at"
    }
}
