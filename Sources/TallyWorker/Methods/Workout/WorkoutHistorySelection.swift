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
    /// Where the workouts lie, when they came before the member that decides which are shown (params written in
    /// another order): passed over by their structure, and read by `history(showing:limits:)`.
    private var deferred: JSONCursor?

    /// Reads the value of `key` when it is `unit` or `workouts`: `true` once read, `false` when it cannot be, was
    /// read before, or holds a workout that fails its checks; `nil` for another key.
    /// - Parameter shows: whether the method shows a workout (its exercises are kept); `nil` while the member that
    ///   decides it is not read yet.
    mutating func read(
        _ key: JSONKeyBytes, _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?,
        limits: RequestLimits
    ) -> Bool? {
        if key.is("workouts") {
            guard workouts == nil, deferred == nil else { return false }
            guard let shows else {
                deferred = cursor
                return cursor.skipValue() != nil
            }
            workouts = [WorkoutParams].selected(&cursor, showing: shows, limits: limits)
            return workouts != nil
        }
        guard key.is("unit") else { return nil }
        guard unit == nil else { return false }
        unit = cursor.text(WeightUnit.init(utf8Symbol:))
        return unit != nil
    }

    /// The history, with `init(from:)`'s defaults (kilograms, no workouts); `nil` when workouts passed over are not
    /// read now, or one fails its checks.
    func history(showing shows: @escaping (WorkoutParams) -> Bool, limits: RequestLimits) -> WorkoutHistoryParams? {
        var workouts = workouts ?? []
        if var deferred {
            guard let read = [WorkoutParams].selected(&deferred, showing: shows, limits: limits) else { return nil }
            workouts = read
        }
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
}

extension WorkoutParams {
    /// Reads one workout of a history and checks it as `isValid(limits:)` does. The exercises of a workout `shows`
    /// does not pick are passed over, checked where they lie (`JSONCursor.passCheckedExercises(limits:)`); the
    /// others are kept. `nil` when the workout is not read or not valid.
    ///
    /// A workout written as Tally's encoder writes it is read in one straight pass; any other (its members in
    /// another order, as Foundation's `JSONEncoder` writes them, or spaced) member by member, its exercises passed
    /// over by their structure first and read once the completion says whether they are shown.
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
                return workout.checked(hidden: hidden, limits: limits)
            }
        }
        return readMemberByMember(&cursor, showing: shows, limits: limits)
    }

    /// Reads a workout member by member, as the generated direct read does (each member once, none unknown; `id`,
    /// `name`, `completed_at` and `exercises` required), its exercises passed over by their structure until the
    /// rest is read.
    private static func readMemberByMember(
        _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?, limits: RequestLimits
    ) -> WorkoutParams? {
        var id: String?
        var name: String?
        var completedAt: Timestamp?
        var templateID: String??
        var dayName: String??
        var plan: PlanParams??
        var exercises: JSONSpan?
        let read = cursor.object { key, cursor in
            if key.is("id") {
                guard id == nil else { return false }
                id = cursor.string()
                return id != nil
            }
            if key.is("name") {
                guard name == nil else { return false }
                name = cursor.string()
                return name != nil
            }
            if key.is("completed_at") {
                guard completedAt == nil else { return false }
                completedAt = cursor.text { try? Timestamp(utf8: $0) }
                return completedAt != nil
            }
            if key.is("template_id") {
                guard templateID == nil else { return false }
                templateID = cursor.nullable { $0.string() }
                return templateID != nil
            }
            if key.is("day_name") {
                guard dayName == nil else { return false }
                dayName = cursor.nullable { $0.string() }
                return dayName != nil
            }
            if key.is("plan") {
                guard plan == nil else { return false }
                plan = cursor.nullable { $0.value(of: PlanParams.self) }
                return plan != nil
            }
            guard key.is("exercises"), exercises == nil else { return false }
            exercises = cursor.skipValue()
            return exercises != nil
        }
        guard read, let id, let name, let completedAt, let exercises else { return nil }
        var workout = WorkoutParams(
            id: id, name: name, completedAt: completedAt, templateID: templateID ?? nil, dayName: dayName ?? nil,
            plan: plan ?? nil, exercises: [])
        let hidden = shows.map { !$0(workout) } ?? false
        if hidden, cursor.reading(exercises, { $0.passCheckedExercises(limits: limits) ? true : nil }) != nil {
            return workout.isValid(limits: limits) ? workout : nil
        }
        guard let list = cursor.reading(exercises, { $0.array(of: ExerciseParams.self) }) else { return nil }
        workout.exercises = list
        return workout.checked(hidden: hidden, limits: limits)
    }

    /// The workout, read with its exercises, when it passes `isValid(limits:)`: without them when `hidden`.
    private consuming func checked(hidden: Bool, limits: RequestLimits) -> WorkoutParams? {
        guard isValid(limits: limits) else { return nil }
        if hidden { exercises = [] }
        return self
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
