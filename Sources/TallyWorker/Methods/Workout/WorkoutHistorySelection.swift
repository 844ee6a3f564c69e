import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol

/// A workout method's params as its worker keeps them (`SelectiveMethod.Selection` of `workout.day`,
/// `workout.detail` and `workout.calendar`): every workout of the history, those the method does not show without
/// their exercises.
///
/// The methods show one day, one workout or one month; every other workout counts by id, completion and template
/// alone ("Logged N times", future workouts, repeated ids, the streak). So the other workouts' exercises, nearly
/// all of a request's bytes, are checked where they lie in the request and never built.
package struct WorkoutHistorySelection<Params: Sendable>: Sendable {
    /// The params; when `workoutsChecked`, the workouts the method does not show have no exercises.
    var params: Params
    /// Whether every workout is known to pass its own checks (`WorkoutParams.isValid(limits:)`), leaving only
    /// what concerns the list as a whole (its length, repeated ids, completion dates) to check.
    var workoutsChecked: Bool
}

extension SelectiveMethod where Selection == WorkoutHistorySelection<Params> {
    /// The whole params (read by the standard decoder, or directly when the selective read gave up) answered as a
    /// selection that has checked nothing: every workout is checked, naming the field.
    package static func result(for params: Params, limits: RequestLimits) throws(TallyError) -> Result {
        try result(for: WorkoutHistorySelection(params: params, workoutsChecked: false), limits: limits)
    }
}

/// The `unit` and `workouts` members of flat workout params, read as `WorkoutHistoryParams.DirectMembers` reads
/// them, but checking every workout and keeping the exercises of only the workouts `shows` picks.
struct SelectedHistoryMembers {
    private var unit: WeightUnit?
    private var workouts: SelectedWorkouts?

    /// Reads the value of `key` when it is `unit` or `workouts`: `true` once read, `false` when it cannot be, was
    /// read before, or holds a workout that fails its checks; `nil` for another key.
    /// - Parameter shows: whether the method shows a workout (its exercises are kept); `nil` while the member that
    ///   decides it is not read yet.
    mutating func read(
        _ key: JSONKeyBytes, _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?,
        limits: RequestLimits
    ) -> Bool? {
        if key.is("workouts") {
            guard workouts == nil else { return false }
            workouts = SelectedWorkouts.read(&cursor, showing: shows, limits: limits)
            return workouts != nil
        }
        guard key.is("unit") else { return nil }
        guard unit == nil else { return false }
        unit = cursor.text(WeightUnit.init(utf8Symbol:))
        return unit != nil
    }

    /// The history, with `init(from:)`'s defaults (kilograms, no workouts), the exercises of the workouts `shows`
    /// picks read; `nil` when one of those is not read.
    func history(showing shows: (WorkoutParams) -> Bool) -> WorkoutHistoryParams? {
        var resolved: [WorkoutParams] = []
        if let workouts {
            guard let read = workouts.resolved(showing: shows) else { return nil }
            resolved = read
        }
        return WorkoutHistoryParams(unit: unit ?? .kilogram, workouts: resolved)
    }
}

extension SelectedHistoryMembers {
    /// Reads flat workout params made of the frame, `unit`, `workouts` and the one member (`key`, read by `read`)
    /// that decides which workouts the method shows (`shows`): a date, a workout's id. `nil` for anything
    /// `Params(direct:)` does not read, or a workout that fails its checks.
    static func readParams<Decider>(
        _ cursor: inout JSONCursor, limits: RequestLimits, key: StaticString,
        read: (inout JSONCursor) -> Decider?, shows: @escaping (Decider) -> (WorkoutParams) -> Bool
    ) -> (time: RequestTime, decider: Decider, history: WorkoutHistoryParams)? {
        var time = RequestTime.DirectMembers()
        var history = SelectedHistoryMembers()
        var decider: Decider?
        let readAll = cursor.object { name, cursor in
            if let done = history.read(name, &cursor, showing: decider.map(shows), limits: limits)
                ?? time.read(name, &cursor)
            {
                return done
            }
            guard name.is(key), decider == nil else { return false }
            decider = read(&cursor)
            return decider != nil
        }
        guard readAll, let time = time.value, let decider, let workouts = history.history(showing: shows(decider))
        else { return nil }
        return (time, decider, workouts)
    }
}

/// A history's workouts, every one checked, read before the method may know which it shows.
///
/// Lives only while the request's bytes are read (it holds cursors into them): the params of a selective method
/// are read and resolved within one `select(_:limits:)`.
struct SelectedWorkouts {
    private var workouts: [WorkoutParams]
    /// The workouts whose exercises were checked and passed over before the method could tell whether it shows
    /// them (the date, the id or the month came after the workouts), and where those exercises lie.
    private var undecided: [(index: Int, exercises: JSONCursor)]

    /// Reads a history's `workouts`, each by `WorkoutParams.selected(_:showing:limits:)`; `nil` when one is not read
    /// or not valid.
    /// - Parameter shows: whether the method shows a workout; `nil` while it cannot tell.
    static func read(
        _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?, limits: RequestLimits
    ) -> SelectedWorkouts? {
        var undecided: [(index: Int, exercises: JSONCursor)] = []
        var index = 0
        let workouts = cursor.array { cursor -> WorkoutParams? in
            defer { index += 1 }
            guard let read = WorkoutParams.selected(&cursor, showing: shows, limits: limits) else { return nil }
            if let exercises = read.undecidedExercises { undecided.append((index, exercises)) }
            return read.workout
        }
        guard let workouts else { return nil }
        return SelectedWorkouts(workouts: workouts, undecided: undecided)
    }

    /// The workouts once the method knows which it shows: the exercises of the undecided ones it shows read where
    /// they lie, those of the others let go. `nil` when exercises are not read.
    func resolved(showing shows: (WorkoutParams) -> Bool) -> [WorkoutParams]? {
        var workouts = workouts
        for (index, exercises) in undecided where shows(workouts[index]) {
            var cursor = exercises
            guard let list = cursor.array(of: ExerciseParams.self) else { return nil }
            workouts[index].exercises = list
        }
        for index in workouts.indices where !workouts[index].exercises.isEmpty && !shows(workouts[index]) {
            workouts[index].exercises = []
        }
        return workouts
    }
}

extension WorkoutParams {
    /// Reads one workout of a history and checks it as `isValid(limits:)` does. The exercises of a workout `shows`
    /// does not pick are passed over, checked where they lie (`JSONCursor.passCheckedExercises(limits:)`); the
    /// others are kept. When `shows` is `nil` (the method cannot tell yet), the exercises are checked and passed
    /// over, and where they lie is `undecidedExercises`. `nil` when the workout is not read or not valid.
    ///
    /// A workout written as Tally's encoder writes it is read in one straight pass; any other (its members in
    /// another order, as Foundation's `JSONEncoder` writes them, or spaced) member by member.
    static func selected(
        _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?, limits: RequestLimits
    ) -> (workout: WorkoutParams, undecidedExercises: JSONCursor?)? {
        var straight = cursor
        if var workout = head(&straight) {
            let shown = shows.map { $0(workout) }
            var passing = straight
            if shown != true, passing.passCheckedExercises(limits: limits), passing.literal("}") {
                cursor = passing
                guard workout.isValid(limits: limits) else { return nil }
                return (workout, shown == nil ? straight : nil)
            }
            if let exercises = straight.array(of: ExerciseParams.self), straight.literal("}") {
                cursor = straight
                workout.exercises = exercises
                guard workout.isValid(limits: limits) else { return nil }
                if shown == false { workout.exercises = [] }
                return (workout, nil)
            }
        }
        return readMemberByMember(&cursor, showing: shows, limits: limits)
    }

    /// Reads a workout member by member, as the generated direct read does (each member once, none unknown; `id`,
    /// `name`, `completed_at` and `exercises` required). Its exercises are checked and passed over where they come,
    /// and read again from there once the rest of the workout says it is shown.
    private static func readMemberByMember(
        _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?, limits: RequestLimits
    ) -> (workout: WorkoutParams, undecidedExercises: JSONCursor?)? {
        var id: String?
        var name: String?
        var completedAt: Timestamp?
        var templateID: String??
        var dayName: String??
        var plan: PlanParams??
        // Where the exercises lie, once passed over; or the exercises read, when they could not be passed over.
        var exercisesAt: JSONCursor?
        var exercises: [ExerciseParams]?
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
            guard key.is("exercises"), exercisesAt == nil, exercises == nil else { return false }
            let start = cursor
            if cursor.passCheckedExercises(limits: limits) {
                exercisesAt = start
                return true
            }
            cursor = start
            exercises = cursor.array(of: ExerciseParams.self)
            return exercises != nil
        }
        guard read, let id, let name, let completedAt, exercisesAt != nil || exercises != nil else { return nil }
        var workout = WorkoutParams(
            id: id, name: name, completedAt: completedAt, templateID: templateID ?? nil, dayName: dayName ?? nil,
            plan: plan ?? nil, exercises: exercises ?? [])
        guard workout.isValid(limits: limits) else { return nil }
        let shown = shows.map { $0(workout) }
        if exercises != nil {
            if shown == false { workout.exercises = [] }
            return (workout, nil)
        }
        guard shown == true, var again = exercisesAt else { return (workout, shown == nil ? exercisesAt : nil) }
        guard let list = again.array(of: ExerciseParams.self) else { return nil }
        workout.exercises = list
        return (workout, nil)
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
