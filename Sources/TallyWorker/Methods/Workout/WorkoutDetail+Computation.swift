import TallyCore
import TallyJSONCoding
import TallyProtocol

extension WorkoutDetail: SelectiveMethod {
    /// The params with the exercises of only the workout asked for.
    package typealias Selection = WorkoutHistorySelection<Params>

    /// Reads the params as `Params(direct:)` does, checking every workout and building the exercises of only the
    /// one asked for.
    package static func select(_ cursor: inout JSONCursor, limits: RequestLimits) -> Selection? {
        selection(&cursor, limits: limits, showing: { $0.workoutID.map(hasID) }, then: { hasID($0.workoutID) })
    }

    /// Whether a workout has the id `id`.
    private static func hasID(_ id: String) -> (WorkoutParams) -> Bool { { $0.id == id } }

    /// Validates what `selection` has not checked and computes the drill-down.
    /// - Throws: `invalid_params` naming the field (ranges, duplicate ids naming both places, a `now` or a
    ///   completion whose local date is not a supported date; `params.workout_id` with the id in `details.value`
    ///   when no workout has it, or when that workout is future); `payload_too_large` for a list over `limits`.
    package static func result(for selection: Selection, limits: RequestLimits) throws(TallyError) -> Result {
        let params = selection.params
        let reference = try params.time.checkedReferenceDay()
        let field = FieldPath.params + Params.CodingKeys.workoutID
        let workoutID = params.workoutID
        try WorkoutBounds.check(workoutID, length: WorkoutBounds.idLength, field)
        let calendar = params.time.calendar
        let workouts = params.workouts
        let logged = try LoggedWorkouts(
            workouts, reference: reference, calendar: calendar, limits: limits,
            elementsChecked: selection.workoutsChecked)
        guard let index = workouts.firstIndex(where: { $0.id == workoutID }) else {
            throw .invalidParams(field, "no workout of params.workouts has this id", value: workoutID)
        }
        let instant = workouts[index].completedAt.instant
        guard !reference.isFuture(instant, in: calendar) else {
            throw .invalidParams(
                field, "the workout is completed after now (today is \(reference.today)): future workouts are ignored",
                conflictsWith: WorkoutParams.completionPath(index), value: workoutID)
        }
        let date = calendar.localDate(of: instant)
        let item = WorkoutDayDetail.Item(
            workouts[index], on: date, unit: params.unit, usage: logged.usage)
        return Result(
            date: date, asOf: reference.today, unit: params.unit,
            workout: WorkoutDay.Workout(item, date: date, calendar: calendar),
            futureWorkoutsIgnored: workouts.count - logged.past.count)
    }
}
