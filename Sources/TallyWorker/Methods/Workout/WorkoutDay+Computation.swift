import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol

extension WorkoutDay: SelectiveMethod {
    /// The params with the exercises of only the workouts that may fall on the date in some zone (within its UTC
    /// day ± 18 h).
    package typealias Selection = WorkoutHistorySelection<Params>

    /// Reads the params as `Params(direct:)` does, checking every workout and building the exercises of only those
    /// that may fall on the date.
    package static func select(_ cursor: inout JSONCursor, limits: RequestLimits) -> Selection? {
        selection(&cursor, limits: limits, showing: { $0.date.map(mayFallOn) }, then: { mayFallOn($0.date) })
    }

    /// Whether a workout may fall on `date` in any zone.
    private static func mayFallOn(_ date: LocalDate) -> (WorkoutParams) -> Bool {
        { ZoneCalendar.instant($0.completedAt.instant, mayFallOn: date) }
    }

    /// Validates what `selection` has not checked and computes the day.
    /// - Throws: `invalid_params` naming the field (ranges, duplicate ids naming both places, a `now` or a
    ///   completion whose local date is not a supported date, a date after today); `payload_too_large` for a list
    ///   over `limits`.
    package static func result(for selection: Selection, limits: RequestLimits) throws(TallyError) -> Result {
        let params = selection.params
        let reference = try params.time.checkedReferenceDay()
        let calendar = params.time.calendar
        let workouts = params.workouts
        let logged = try LoggedWorkouts(
            workouts, reference: reference, calendar: calendar, limits: limits,
            elementsChecked: selection.workoutsChecked)
        let date = params.date
        guard date <= reference.today else {
            throw .invalidParams(
                .params + "date", "is after today (\(reference.today)): future days cannot be selected")
        }
        // Future workouts are neither on the day nor logged. The whole history counts only towards template usage:
        // just the day's workouts are measured (two years of training are ~12,000 sets; a day has a few hundred at
        // most).
        let ofTheDay = logged.past.filter { index in
            let instant = workouts[index].completedAt.instant
            return ZoneCalendar.instant(instant, mayFallOn: date) && calendar.localDate(of: instant) == date
        }.map { workouts[$0] }
        let detail = WorkoutDayDetail(
            workouts: ofTheDay, usage: logged.usage, date: date, unit: params.unit,
            calendar: calendar)
        return Result(
            detail, asOf: reference.today, futureWorkoutsIgnored: workouts.count - logged.past.count, calendar: calendar
        )
    }
}

extension WorkoutDay.Result {
    /// The day's workouts in the zone's local time, in the unit of `detail`.
    package init(_ detail: WorkoutDayDetail, asOf: LocalDate, futureWorkoutsIgnored: Int, calendar: ZoneCalendar) {
        self.init(
            date: detail.date, asOf: asOf, unit: detail.unit,
            workouts: detail.items.map { WorkoutDay.Workout($0, date: detail.date, calendar: calendar) },
            futureWorkoutsIgnored: futureWorkoutsIgnored)
    }
}
