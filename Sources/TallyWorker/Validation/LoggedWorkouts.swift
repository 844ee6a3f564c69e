import TallyCore
import TallyJSONCoding
import TallyProtocol

/// A request's workout history as the methods that show single workouts read it (`workout.day`,
/// `workout.detail`): every workout checked, every completion on a supported date, and the workouts that are not
/// future, whose templates count towards "Logged N times". A method measures only the workouts it shows.
struct LoggedWorkouts {
    /// The indices of the workouts up to now (or up to the end of today, for a request that gave `today`).
    let past: [Int]
    /// How often each template was logged by those workouts.
    let usage: TemplateUsage

    /// Validates `workouts` (`params.workouts`) in the request's frame.
    /// - Parameter elementsChecked: each workout is known to be valid on its own (`WorkoutParams.check`).
    /// - Throws: `invalid_params` naming the field (ranges, duplicate ids naming both places, a completion whose
    ///   local date is not a supported date); `payload_too_large` for a list over `limits`.
    init(
        _ workouts: [WorkoutParams], reference: ReferenceDay, calendar: ZoneCalendar, limits: RequestLimits,
        elementsChecked: Bool = false
    ) throws(TallyError) {
        try WorkoutParams.check(
            workouts, at: .params + "workouts", limits: limits, elementsChecked: elementsChecked)
        // Every completion must fall on a supported date, as in workout.calendar; only those within 18 hours of the
        // calendar's ends can fail, so the others cost no zone lookup.
        for index in workouts.indices
        where ZoneCalendar.mayFallOutsideSupportedDates(workouts[index].completedAt.instant) {
            _ = try calendar.requestDate(
                of: workouts[index].completedAt.instant, at: WorkoutParams.completionPath(index))
        }
        past = workouts.indices.filter { !reference.isFuture(workouts[$0].completedAt.instant, in: calendar) }
        usage = TemplateUsage(templateIDs: past.compactMap { workouts[$0].templateID })
    }
}
