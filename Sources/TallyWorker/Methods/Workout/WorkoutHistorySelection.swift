import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol

/// A workout method's params as its worker keeps them (`SelectiveMethod.Selection` of `workout.day`,
/// `workout.detail` and `workout.calendar`): every workout of the history, those the method does not show without
/// their exercises.
///
/// The methods show one day, one workout or one month; every other workout counts by id, completion and template
/// alone ("Logged N times", future workouts, repeated ids, the streak). So the other workouts' exercises, nearly all of a request's
/// bytes, are checked where they lie in the request and never built.
package struct WorkoutHistorySelection<Params: Sendable>: Sendable {
    /// The params; when `workoutsChecked`, the workouts the method does not show have no exercises.
    var params: Params
    /// Whether every workout is known to pass its own checks (`WorkoutParams.isValid(limits:)`), leaving only
    /// what concerns the list as a whole (its length, repeated ids, completion dates) to check.
    var workoutsChecked: Bool
}

/// The `unit` and `workouts` members of flat workout params, read as `WorkoutHistoryParams.DirectMembers` reads
/// them, but checking every workout and keeping the exercises of only the workouts `shows` picks.
struct SelectedHistoryMembers {
    private var unit: WeightUnit?
    private var workouts: [WorkoutParams]?

    /// Reads the value of `key` when it is `unit` or `workouts`: `true` once read, `false` when it cannot be, was
    /// read before, or holds a workout that fails its checks; `nil` for another key.
    /// - Parameter shows: whether the method shows a workout (its exercises are kept); `nil` while the member that
    ///   decides it is not read yet, and every workout is kept until `history(showing:)`.
    mutating func read(
        _ key: JSONKeyBytes, _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?,
        limits: RequestLimits
    ) -> Bool? {
        if key.is("workouts") {
            guard workouts == nil else { return false }
            workouts = [WorkoutParams].selected(&cursor, showing: shows, limits: limits)
            return workouts != nil
        }
        guard key.is("unit") else { return nil }
        guard unit == nil else { return false }
        unit = cursor.text(WeightUnit.init(utf8Symbol:))
        return unit != nil
    }

    /// The history, with `init(from:)`'s defaults (kilograms, no workouts); the workouts `shows` does not pick
    /// without their exercises.
    func history(showing shows: (WorkoutParams) -> Bool) -> WorkoutHistoryParams {
        var workouts = workouts ?? []
        workouts.keepExercises(showing: shows)
        return WorkoutHistoryParams(unit: unit ?? .kilogram, workouts: workouts)
    }
}

extension [WorkoutParams] {
    /// Reads a history's `workouts`, each by `WorkoutParams.selected(_:showing:limits:)`.
    static func selected(
        _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?, limits: RequestLimits
    ) -> [WorkoutParams]? {
        cursor.array { WorkoutParams.selected(&$0, showing: shows, limits: limits) }
    }

    /// Lets go of the exercises of the workouts `shows` does not pick (those read before it was known kept them).
    mutating func keepExercises(showing shows: (WorkoutParams) -> Bool) {
        for index in indices where !self[index].exercises.isEmpty && !shows(self[index]) {
            self[index].exercises = []
        }
    }
}

extension WorkoutParams {
    /// Reads one workout of a history and checks it as `isValid(limits:)` does. The exercises of a workout `shows`
    /// does not pick are passed over, checked where they lie (`JSONCursor.passCheckedExercises(limits:)`); the
    /// others are kept. `nil` when the workout is not read or not valid.
    static func selected(
        _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?, limits: RequestLimits
    ) -> WorkoutParams? {
        var straight = cursor
        if var workout = head(&straight) {
            let hidden = shows.map { !$0(workout) } ?? false
            var passing = straight
            if hidden, passing.passCheckedExercises(limits: limits), passing.literal("}") {
                cursor = passing
                return workout.isValid(limits: limits) ? workout : nil
            }
            if let exercises = straight.array(of: ExerciseParams.self), straight.literal("}") {
                cursor = straight
                workout.exercises = exercises
                guard workout.isValid(limits: limits) else { return nil }
                if hidden { workout.exercises = [] }
                return workout
            }
        }
        // Not as Tally's encoder writes it: read whole, members in any order.
        guard var workout = WorkoutParams(direct: &cursor), workout.isValid(limits: limits) else { return nil }
        if let shows, !shows(workout) { workout.exercises = [] }
        return workout
    }

    /// Reads a workout written compactly with its members in the schema's order up to its exercises (the cursor then
    /// before their value), as the generated straight read does; the workout has no exercises yet. `nil` (the
    /// cursor left anywhere) for anything else.
    private static func head(_ cursor: inout JSONCursor) -> WorkoutParams? {
        guard cursor.literal("{\"id\":"), let id = cursor.string(), cursor.literal(",\"name\":"),
            let name = cursor.string(), cursor.literal(",\"completed_at\":"),
            let completedAt = cursor.text({ try? Timestamp(utf8: $0) })
        else { return nil }
        var workout = WorkoutParams(id: id, name: name, completedAt: completedAt, exercises: [])
        if cursor.literal(",\"template_id\":") {
            guard let value = cursor.nullable({ $0.string() }) else { return nil }
            workout.templateID = value
        }
        if cursor.literal(",\"day_name\":") {
            guard let value = cursor.nullable({ $0.string() }) else { return nil }
            workout.dayName = value
        }
        if cursor.literal(",\"plan\":") {
            guard let value = cursor.nullable({ $0.value(of: PlanParams.self) }) else { return nil }
            workout.plan = value
        }
        return cursor.literal(",\"exercises\":") ? workout : nil
    }
}
