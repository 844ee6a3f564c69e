import TallyCalendar
import TallyCore
import TallyProtocol

extension WorkoutDay: ComputedMethod {
    /// Validates the history and computes the day.
    /// - Throws: `invalid_params` naming the field (ranges, duplicate ids naming both places, a `now` or a
    ///   completion whose local date is not a supported date, a date after today); `payload_too_large` for a list
    ///   over `limits`.
    package static func result(for params: Params, limits: RequestLimits) throws(TallyError) -> Result {
        let reference = try params.time.checkedReferenceDay()
        let calendar = params.time.calendar
        let workouts = params.history.workouts
        let logged = try LoggedWorkouts(workouts, reference: reference, calendar: calendar, limits: limits)
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
            workouts: ofTheDay, usage: logged.usage, date: date, unit: params.history.unit,
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
