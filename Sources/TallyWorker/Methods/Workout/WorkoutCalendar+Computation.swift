import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol

extension WorkoutCalendar: SelectiveMethod {
    /// The params with the exercises of only the workouts that may fall in the month shown (the one asked for, or
    /// the current one).
    package typealias Selection = WorkoutHistorySelection<Params>

    /// Reads the params as `Params(direct:)` does, checking every workout and building the exercises of only those
    /// that may fall in the month shown: the one given, or (left out) the current one. Until the params say which
    /// (a month comes before the workouts as Tally's encoder writes them; a month left out is known only at their
    /// end), the exercises are checked and passed over, and the shown ones read again from where they lie.
    package static func select(_ cursor: inout JSONCursor, limits: RequestLimits) -> Selection? {
        selection(&cursor, limits: limits, showing: { $0.month.map(inMonth) }) { params in
            // A frame the result refuses shows no month: every workout keeps its exercises, and the result throws.
            (params.month ?? (try? params.time.checkedReferenceDay().today.yearMonth)).map(inMonth) ?? { _ in true }
        }
    }

    /// Whether a workout may fall in `month` in any zone.
    private static func inMonth(_ month: YearMonth) -> (WorkoutParams) -> Bool {
        { ZoneCalendar.instant($0.completedAt.instant, mayFallWithin: month.firstDay...month.lastDay) }
    }

    /// Validates what `selection` has not checked and computes the month.
    /// - Throws: `invalid_params` naming the field (ranges, empty filter, duplicate ids naming both places, a `now`
    ///   or a completion whose local date is not a supported date, a month after the current one);
    ///   `payload_too_large` for a list over `limits`.
    package static func result(for selection: Selection, limits: RequestLimits) throws(TallyError) -> Result {
        let params = selection.params
        let types = try params.shownTypes(limits: limits)
        let calendar = params.time.calendar
        let reference = try params.time.checkedReferenceDay()
        let today = reference.today
        let month = params.month ?? today.yearMonth
        let workouts = params.workouts
        try WorkoutParams.check(
            workouts, at: .params + "workouts", limits: limits, elementsChecked: selection.workoutsChecked)
        let stretches = params.stretches
        let meditations = params.meditations
        try StretchParams.check(stretches, at: .params + "stretches", limits: limits)
        try MeditationParams.check(meditations, at: .params + "meditations", limits: limits)
        // Workouts are most of a history's bytes, yet outside the month only their dates matter (the streak, the
        // navigation): each is dated once, and only the month's are placed on the timeline. Future
        // workouts are left out of everything.
        var pastWorkouts: [Int] = []
        var workoutDates: [LocalDate] = []
        pastWorkouts.reserveCapacity(workouts.count)
        workoutDates.reserveCapacity(workouts.count)
        for index in workouts.indices {
            let instant = workouts[index].completedAt.instant
            let date = try calendar.requestDate(of: instant, at: WorkoutParams.completionPath(index))
            guard !reference.isFuture(instant, on: date) else { continue }
            pastWorkouts.append(index)
            workoutDates.append(date)
        }
        // By index: iterating the sessions would copy each one out (its id and regions retained and released).
        for index in stretches.indices {
            _ = try calendar.requestDate(
                of: stretches[index].completedAt.instant,
                at: FieldPath.params.key("stretches").index(index) + StretchParams.CodingKeys.completedAt)
        }
        for index in meditations.indices {
            _ = try calendar.requestDate(
                of: meditations[index].completedAt.instant,
                at: FieldPath.params.key("meditations").index(index) + MeditationParams.CodingKeys.completedAt)
        }
        guard month <= today.yearMonth else {
            throw .invalidParams(.params + "month", "is after the current month \(today.yearMonth)")
        }
        let days = month.firstDay...month.lastDay
        let monthWorkouts = workoutDates.indices.filter { days.contains(workoutDates[$0]) }
            .map { workouts[pastWorkouts[$0]] }
        let timeline = ActivityTimeline(
            workouts: monthWorkouts, stretches: stretches, meditations: meditations, calendar: calendar,
            reference: reference)
        let shown = Set(types)
        var shownDates = timeline.entries.filter { $0.type != .workout && shown.contains($0.type) }.map(\.date)
        if shown.contains(.workout) { shownDates += workoutDates }
        let span = shownDates.min().flatMap { first in shownDates.max().map { first...$0 } }
        let activityMonth = ActivityMonth(
            monthOf: timeline, month: month, types: shown, today: today, historySpan: span)
        return Result(
            activityMonth, types: types,
            streak: WorkoutStreak(workoutDates: workoutDates, today: today, lived: StreakDays(calendar: calendar)),
            asOf: today, futureActivitiesIgnored: workouts.count - pastWorkouts.count + timeline.futureEntriesIgnored,
            calendar: calendar)
    }
}

extension WorkoutCalendar.Result {
    /// The core month on the wire, each completion instant in the zone's local time.
    package init(
        _ month: ActivityMonth, types: [ActivityType], streak: WorkoutStreak, asOf: LocalDate,
        futureActivitiesIgnored: Int, calendar: ZoneCalendar
    ) {
        var days: [String: WorkoutCalendar.Day] = [:]
        for day in month.days {
            days[day.date.description] = WorkoutCalendar.Day(
                activities: day.entries.map { WorkoutCalendar.Activity($0, calendar: calendar) })
        }
        self.init(
            month: month.month, asOf: asOf, startDate: month.month.firstDay, endDate: month.month.lastDay,
            types: types, days: days, markedDays: month.days.map(\.date),
            currentStreak: WorkoutCalendar.Streak(
                days: streak.days, startDate: streak.startDate, endDate: streak.endDate,
                includesToday: streak.includesToday),
            hasEarlier: month.hasEarlier, hasLater: month.hasLater, isEmpty: month.isEmpty,
            futureActivitiesIgnored: futureActivitiesIgnored)
    }
}

extension WorkoutCalendar.Params {
    /// The types to show, in canonical order (workout, stretch, meditation), repeats dropped.
    /// - Throws: `invalid_params` for an empty list (omit `types` to show everything).
    package func shownTypes(limits: RequestLimits) throws(TallyError) -> [ActivityType] {
        guard let types else { return ActivityType.allCases }
        let path = FieldPath.params + "types"
        try limits.check(types.count, at: path, unit: "types")
        guard !types.isEmpty else { throw .invalidParams(path, "needs at least one type (omit types to show all)") }
        let chosen = Set(types)
        return ActivityType.allCases.filter(chosen.contains)
    }
}

extension WorkoutCalendar.Activity {
    /// An activity card: its completion in the zone's local time, and what its type shows.
    init(_ entry: ActivityTimeline.Entry, calendar: ZoneCalendar) {
        let instant = entry.activity.completedAt
        let type = entry.type
        self.init(
            id: "\(type.rawValue)-\(entry.activity.id)", sourceID: entry.activity.id, type: type,
            completedAt: Timestamp(instant, offset: calendar.utcOffset(at: instant)),
            summary: WorkoutCalendar.Summary(entry.activity))
    }
}

extension WorkoutCalendar.Summary {
    init(_ activity: TallyCore.Activity) {
        switch activity {
        case .workout(let workout):
            self.init(
                name: workout.name, dayName: workout.cardName, exerciseCount: workout.exercises.count,
                setCount: workout.setCount)
        case .stretch(let stretch):
            self.init(regions: stretch.regions, durationSeconds: stretch.durationSeconds)
        case .meditation(let meditation):
            self.init(durationSeconds: meditation.durationSeconds)
        }
    }
}
