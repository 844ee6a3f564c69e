import TallyCalendar
import TallyCore

/// `workout.day`: the drill-down of one local date: its workouts with volumes per workout and per exercise,
/// the weights used, "Week Y of Z" and "Logged N times". Served by `tally.workout`.
public enum WorkoutDay: TallyMethod {
    public static let name = "workout.day"
    public static let service = TallyService.workout

    /// The time frame, the date, the reporting unit and the whole workout history, all flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        /// The local date drilled into.
        public var date: LocalDate
        /// The unit volumes and weights are reported in; default kg.
        public var unit: WeightUnitParam
        /// Every workout the client has (default none): the day's workouts are picked from it, and all of them count
        /// towards template usage.
        public var workouts: [WorkoutParams]

        public init(
            time: RequestTime, date: LocalDate, unit: WeightUnit = .kilogram, workouts: [WorkoutParams] = []
        ) {
            self.time = time
            self.date = date
            self.unit = WeightUnitParam(unit)
            self.workouts = workouts
        }

        enum CodingKeys: String, CodingKey {
            case date, unit, workouts
        }

        public init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            date = try container.decode(LocalDate.self, forKey: .date)
            unit = try container.decodeIfPresent(WeightUnitParam.self, forKey: .unit) ?? WeightUnitParam(.kilogram)
            workouts = try container.decodeIfPresent([WorkoutParams].self, forKey: .workouts) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(date, forKey: .date)
            try container.encode(unit, forKey: .unit)
            try container.encode(workouts, forKey: .workouts)
        }

        /// Validates the history and computes the day.
        /// - Throws: `invalid_params` naming the field (ranges, duplicate ids naming both places, a `now` or a
        ///   completion whose local date is not a supported date, a date after today); `payload_too_large` for a
        ///   list over `limits`.
        public func result(limits: RequestLimits) throws(TallyError) -> Result {
            let reference = try time.checkedReferenceDay()
            try WorkoutParams.check(workouts, at: .params + "workouts", limits: limits)
            let calendar = time.calendar
            // Every completion must fall on a supported date, as in workout.calendar; only those within 18 hours
            // of the calendar's ends can fail, so the others cost no zone lookup.
            for index in workouts.indices
            where ZoneCalendar.mayFallOutsideSupportedDates(workouts[index].completedAt.instant) {
                _ = try calendar.requestDate(
                    of: workouts[index].completedAt.instant,
                    at: FieldPath.params.key("workouts").index(index) + "completed_at")
            }
            guard date <= reference.today else {
                throw .invalidParams(
                    .params + "date", "is after today (\(reference.today)): future days cannot be selected")
            }
            // Future workouts are neither on the day nor logged. The whole history counts only towards template
            // usage: just the day's workouts are converted (two years of training are ~12,000 sets; a day has a few
            // hundred at most).
            let past = workouts.indices.filter { !reference.isFuture(workouts[$0].completedAt.instant, in: calendar) }
            let usage = TemplateUsage(templateIDs: past.compactMap { workouts[$0].templateID })
            let ofTheDay = past.filter { index in
                let instant = workouts[index].completedAt.instant
                return ZoneCalendar.instant(instant, mayFallOn: date) && calendar.localDate(of: instant) == date
            }.map { workouts[$0].workout }
            let detail = WorkoutDayDetail(
                workouts: ofTheDay, usage: usage, date: date, unit: unit.unit, calendar: calendar)
            return Result(
                detail, asOf: reference.today, futureWorkoutsIgnored: workouts.count - past.count, calendar: calendar)
        }
    }
}
