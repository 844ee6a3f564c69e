import TallyCalendar
import TallyCore

/// `workout.calendar`: one month of the activity calendar (workouts, stretches, meditations) with the marked
/// days, the current workout streak and how far the calendar can page. Served by `tally.workout`.
public enum WorkoutCalendar: TallyMethod {
    public static let name = "workout.calendar"
    public static let service = TallyService.workout

    /// The time frame, the month, the type filter and the activity lists, all flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        /// The month shown; default the month of today.
        public var month: YearMonth?
        /// The types shown; default all three. Never empty.
        public var types: [ActivityTypeParam]?
        public var workouts: [WorkoutParams]
        public var stretches: [StretchParams]
        public var meditations: [MeditationParams]

        public init(
            time: RequestTime, month: YearMonth? = nil, types: [ActivityKind]? = nil, workouts: [WorkoutParams] = [],
            stretches: [StretchParams] = [], meditations: [MeditationParams] = []
        ) {
            self.time = time
            self.month = month
            self.types = types?.map(ActivityTypeParam.init)
            self.workouts = workouts
            self.stretches = stretches
            self.meditations = meditations
        }

        enum CodingKeys: String, CodingKey {
            case month, types, workouts, stretches, meditations
        }

        public init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            month = try container.decodeIfPresent(YearMonth.self, forKey: .month)
            types = try container.decodeIfPresent([ActivityTypeParam].self, forKey: .types)
            workouts = try container.decodeIfPresent([WorkoutParams].self, forKey: .workouts) ?? []
            stretches = try container.decodeIfPresent([StretchParams].self, forKey: .stretches) ?? []
            meditations = try container.decodeIfPresent([MeditationParams].self, forKey: .meditations) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(month, forKey: .month)
            try container.encodeIfPresent(types, forKey: .types)
            try container.encode(workouts, forKey: .workouts)
            try container.encode(stretches, forKey: .stretches)
            try container.encode(meditations, forKey: .meditations)
        }

        /// The kinds to show, in canonical order (workout, stretch, meditation), repeats dropped.
        /// - Throws: `invalid_params` for an empty list (omit `types` to show everything).
        public func kinds(limits: RequestLimits) throws(TallyError) -> [ActivityKind] {
            guard let types else { return ActivityKind.allCases }
            let path = FieldPath.params + "types"
            try limits.check(types.count, at: path, unit: "types")
            guard !types.isEmpty else { throw .invalidParams(path, "needs at least one type (omit types to show all)") }
            let chosen = Set(types.map(\.kind))
            return ActivityKind.allCases.filter(chosen.contains)
        }

        /// Validates every list, dates every activity once, and computes the month (converting only its workouts).
        /// - Throws: `invalid_params` naming the field (ranges, empty filter, duplicate ids naming both places, a
        ///   `now` or a completion whose local date is not a supported date, a month after the current one);
        ///   `payload_too_large` for a list over `limits`.
        public func result(limits: RequestLimits) throws(TallyError) -> Result {
            let kinds = try kinds(limits: limits)
            let calendar = time.calendar
            let reference = try time.checkedReferenceDay()
            let today = reference.today
            let month = self.month ?? today.yearMonth
            try WorkoutParams.check(workouts, at: .params + "workouts", limits: limits)
            let stretches = try StretchParams.sessions(stretches, at: .params + "stretches", limits: limits)
            let meditations = try MeditationParams.sessions(meditations, at: .params + "meditations", limits: limits)
            // Workouts are most of a history's bytes, yet outside the month only their dates matter (the streak,
            // the navigation): each is dated once, and only the month's are converted and placed on the timeline.
            // Future workouts are left out of everything.
            var pastWorkouts: [Int] = []
            var workoutDates: [LocalDate] = []
            pastWorkouts.reserveCapacity(workouts.count)
            workoutDates.reserveCapacity(workouts.count)
            for index in workouts.indices {
                let instant = workouts[index].completedAt.instant
                let date = try calendar.requestDate(
                    of: instant, at: FieldPath.params.key("workouts").index(index) + "completed_at")
                guard !reference.isFuture(instant, on: date) else { continue }
                pastWorkouts.append(index)
                workoutDates.append(date)
            }
            for index in self.stretches.indices {
                _ = try calendar.requestDate(
                    of: stretches[index].completedAt,
                    at: FieldPath.params.key("stretches").index(index) + "completed_at")
            }
            for index in self.meditations.indices {
                _ = try calendar.requestDate(
                    of: meditations[index].completedAt,
                    at: FieldPath.params.key("meditations").index(index) + "completed_at")
            }
            guard month <= today.yearMonth else {
                throw .invalidParams(.params + "month", "is after the current month \(today.yearMonth)")
            }
            let days = month.firstDay...month.lastDay
            let monthWorkouts = workoutDates.indices.filter { days.contains(workoutDates[$0]) }
                .map { workouts[pastWorkouts[$0]].workout }
            let timeline = ActivityTimeline(
                workouts: monthWorkouts, stretches: stretches, meditations: meditations, calendar: calendar,
                reference: reference)
            let shown = Set(kinds)
            var shownDates = timeline.entries.filter { $0.kind != .workout && shown.contains($0.kind) }.map(\.date)
            if shown.contains(.workout) { shownDates += workoutDates }
            let span = shownDates.min().flatMap { first in shownDates.max().map { first...$0 } }
            let activityMonth = ActivityMonth(
                monthOf: timeline, month: month, kinds: shown, today: today, historySpan: span)
            return Result(
                activityMonth, kinds: kinds,
                streak: WorkoutStreak(
                    workoutDates: workoutDates, today: today, lived: StreakDays(calendar: calendar)),
                asOf: today,
                futureActivitiesIgnored: workouts.count - pastWorkouts.count + timeline.futureEntriesIgnored,
                calendar: calendar)
        }
    }
}
