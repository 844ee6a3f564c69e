import TallyCore

/// `history.dashboard`: the home screen for a selected day: its step card, the chart of the chosen mode (hours of
/// the day, days of its week, days of its month) with totals, and whether the review prompt is due. Served by
/// `tally.history`.
public enum HistoryDashboard: TallyMethod {
    public static let name = "history.dashboard"
    public static let service = TallyService.history

    /// The time frame, the goal keys, the records, the samples, the selected day, the mode, the week's first day
    /// and `is_pro`, flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        public var goals: GoalParams
        public var records: [DailyRecordParams]
        /// Timed samples for the daily chart; default none (every hour then has no data).
        public var samples: [StepSampleParams]
        /// The selected day; default today. Not after today.
        public var date: LocalDate?
        /// Default `daily`; `weekly` and `monthly` need Pro.
        public var mode: DashboardMode
        /// Which week `weekly` shows; default `sunday`.
        public var weekStartsOn: WeekStart
        public var isPro: Bool

        public init(
            time: RequestTime, goals: GoalParams, records: [DailyRecordParams], samples: [StepSampleParams] = [],
            date: LocalDate? = nil, mode: DashboardMode = .daily, weekStartsOn: WeekStart = .sunday,
            isPro: Bool = false
        ) {
            self.time = time
            self.goals = goals
            self.records = records
            self.samples = samples
            self.date = date
            self.mode = mode
            self.weekStartsOn = weekStartsOn
            self.isPro = isPro
        }

        enum CodingKeys: String, CodingKey {
            case records, samples, date, mode
            case weekStartsOn = "week_starts_on"
            case isPro = "is_pro"
        }

        public init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            goals = try GoalParams(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            records = try container.decode([DailyRecordParams].self, forKey: .records)
            samples = try container.decodeIfPresent([StepSampleParams].self, forKey: .samples) ?? []
            date = try container.decodeIfPresent(LocalDate.self, forKey: .date)
            mode = try container.decodeIfPresent(DashboardMode.self, forKey: .mode) ?? .daily
            weekStartsOn = try container.decodeIfPresent(WeekStart.self, forKey: .weekStartsOn) ?? .sunday
            isPro = try container.decodeIfPresent(Bool.self, forKey: .isPro) ?? false
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            try goals.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(records, forKey: .records)
            if !samples.isEmpty { try container.encode(samples, forKey: .samples) }
            try container.encodeIfPresent(date, forKey: .date)
            try container.encode(mode.rawValue, forKey: .mode)
            try container.encode(weekStartsOn.rawValue, forKey: .weekStartsOn)
            try container.encode(isPro, forKey: .isPro)
        }

        /// Validates everything and computes the dashboard.
        /// - Throws: `invalid_params` (a date after today, goal log, records, samples), `payload_too_large`,
        ///   `pro_required` for `weekly` or `monthly` without Pro.
        public func result(limits: RequestLimits) throws(TallyError) -> Result {
            let reference = time.referenceDay
            let settings = try goals.settings(limits: limits)
            let history = try DailyRecordParams.history(records, at: .params + "records", limits: limits)
            let converted = try StepSampleParams.samples(samples, at: .params + "samples", limits: limits)
            let selected = date ?? reference.today
            guard selected <= reference.today else {
                throw .invalidParams(
                    .params + "date", "is after today (\(reference.today)): future days cannot be selected")
            }
            if mode.needsPro, !isPro {
                throw .proRequired(.params + "mode", "the \(mode.rawValue) chart")
            }
            let dashboard = StepDashboard(
                mode: mode, date: selected, history: history, samples: converted, goals: settings,
                today: reference.today, now: reference.now, calendar: time.calendar, weekStart: weekStartsOn)
            let futureRecords = history.records.count - history.firstIndex(onOrAfter: reference.today.adding(days: 1))
            return Result(
                dashboard, asOf: reference.today, futureRecordsIgnored: futureRecords, calendar: time.calendar)
        }
    }
}

extension DashboardMode: Codable {}
