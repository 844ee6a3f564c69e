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

/// The direct members of flat params, as generated (`Params.DirectMembers`): a selective read reads every member
/// but `workouts` through them.
protocol FlatParamsMembers {
    associatedtype Value
    init()
    mutating func read(_ key: JSONKeyBytes, _ cursor: inout JSONCursor) -> Bool?
    var value: Value? { get }
}

/// The params of a workout method: their generated direct members, and every workout the client has.
protocol WorkoutHistoryParams: Sendable {
    associatedtype DirectMembers: FlatParamsMembers where DirectMembers.Value == Self
    var workouts: [WorkoutParams] { get set }
}

extension WorkoutDay.Params: WorkoutHistoryParams {}
extension WorkoutDay.Params.DirectMembers: FlatParamsMembers {}
extension WorkoutDetail.Params: WorkoutHistoryParams {}
extension WorkoutDetail.Params.DirectMembers: FlatParamsMembers {}
extension WorkoutCalendar.Params: WorkoutHistoryParams {}
extension WorkoutCalendar.Params.DirectMembers: FlatParamsMembers {}

extension SelectiveMethod where Params: WorkoutHistoryParams, Selection == WorkoutHistorySelection<Params> {
    /// Reads the params as `Params(direct:)` does: every member but `workouts` through the params' direct members,
    /// and `workouts` with every workout checked and the exercises kept of only those the method shows. Which it
    /// shows, `shows` says as the workouts come, from the members read so far (`nil` while they cannot tell), and
    /// `shown` once every member is read, for the workouts `shows` could not tell. `nil` for anything
    /// `Params(direct:)` does not read, or a workout that fails its checks; no `workouts` is none.
    static func selection(
        _ cursor: inout JSONCursor, limits: RequestLimits,
        showing shows: (Params.DirectMembers) -> ((WorkoutParams) -> Bool)?,
        then shown: (Params) -> (WorkoutParams) -> Bool
    ) -> Selection? {
        var members = Params.DirectMembers()
        var workouts: SelectedWorkouts?
        let readAll = cursor.object { key, cursor in
            guard key.is("workouts") else { return members.read(key, &cursor) ?? false }
            guard workouts == nil else { return false }
            workouts = SelectedWorkouts.read(&cursor, showing: shows(members), limits: limits)
            return workouts != nil
        }
        guard readAll, var params = members.value else { return nil }
        if let workouts {
            guard let resolved = workouts.resolved(showing: shown(params)) else { return nil }
            params.workouts = resolved
        }
        return Selection(params: params, workoutsChecked: true)
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
    /// another order, as Foundation's `JSONEncoder` writes them, or spaced) member by member: both as the generated
    /// direct read does, but for the exercises.
    static func selected(
        _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?, limits: RequestLimits
    ) -> (workout: WorkoutParams, undecidedExercises: JSONCursor?)? {
        var straight = cursor
        var shown: Bool?
        var undecided: JSONCursor?
        // Bound straight from the read: through a constant, Swift copies the workout, retaining and releasing each
        // of its strings, once per workout of the history.
        guard
            var workout = WorkoutParams.straight(
                &straight,
                exercises: { cursor, workout in
                    // Every other member is read: whether the method shows the workout is known.
                    shown = shows.map { $0(workout) }
                    var passing = cursor
                    if shown != true, passing.passCheckedExercises(limits: limits) {
                        if shown == nil { undecided = cursor }
                        cursor = passing
                        return []
                    }
                    return cursor.array(of: ExerciseParams.self)
                })
        else { return readMemberByMember(&cursor, showing: shows, limits: limits) }
        cursor = straight
        guard workout.isValid(limits: limits) else { return nil }
        if shown == false { workout.exercises = [] }
        return (workout, undecided)
    }

    /// Reads a workout member by member. Its exercises are checked and passed over where they come, and read again
    /// from there once the rest of the workout says it is shown.
    private static func readMemberByMember(
        _ cursor: inout JSONCursor, showing shows: ((WorkoutParams) -> Bool)?, limits: RequestLimits
    ) -> (workout: WorkoutParams, undecidedExercises: JSONCursor?)? {
        // Where the exercises lie, once passed over; `nil` when they could not be, and were read.
        var exercisesAt: JSONCursor?
        let read = WorkoutParams.anyOrder(&cursor) { cursor in
            let start = cursor
            if cursor.passCheckedExercises(limits: limits) {
                exercisesAt = start
                return []
            }
            cursor = start
            return cursor.array(of: ExerciseParams.self)
        }
        guard var workout = read, workout.isValid(limits: limits) else { return nil }
        let shown = shows.map { $0(workout) }
        guard let exercisesAt else {
            if shown == false { workout.exercises = [] }
            return (workout, nil)
        }
        guard shown == true else { return (workout, shown == nil ? exercisesAt : nil) }
        var again = exercisesAt
        guard let list = again.array(of: ExerciseParams.self) else { return nil }
        workout.exercises = list
        return (workout, nil)
    }
}
