import TallyCalendar
import TallyJSONCoding

/// `history.dashboard`: the home screen for a selected day: its step card, the chart of the chosen mode (hours of
/// the day, days of its week, days of its month) with totals, and whether the review prompt is due. Served by
/// `tally.history`.
public enum HistoryDashboard: TallyMethod {
    public static let name = "history.dashboard"
    public static let service = TallyService.history

    /// The shared step keys (`week_starts_on` picks the week of `weekly`), `is_pro`, the samples, the selected day
    /// and the mode, flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var shared: StepHistoryParams
        /// Whether the user has Pro (`weekly` and `monthly` charts); default false.
        public var isPro: Bool
        /// Timed samples for the daily chart; default none (every hour then has no data).
        public var samples: [StepSampleParams]
        /// The selected day; default today. Not after today.
        public var date: LocalDate?
        /// Default `daily`; `weekly` and `monthly` need Pro.
        public var mode: DashboardMode

        public init(
            time: RequestTime, goals: GoalParams, records: [DailyRecordParams] = [], samples: [StepSampleParams] = [],
            date: LocalDate? = nil, mode: DashboardMode = .daily, weekStartsOn: WeekStart = .sunday,
            isPro: Bool = false
        ) {
            shared = StepHistoryParams(time: time, goals: goals, records: records, weekStartsOn: weekStartsOn)
            self.isPro = isPro
            self.samples = samples
            self.date = date
            self.mode = mode
        }

        enum CodingKeys: String, CodingKey {
            case isPro = "is_pro"
            case samples, date, mode
        }

        public init(from decoder: any Decoder) throws {
            shared = try StepHistoryParams(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            isPro = try container.decodeIfPresent(Bool.self, forKey: .isPro) ?? false
            samples = try container.decodeIfPresent([StepSampleParams].self, forKey: .samples) ?? []
            date = try container.decodeIfPresent(LocalDate.self, forKey: .date)
            mode = try container.decodeIfPresent(DashboardMode.self, forKey: .mode) ?? .daily
        }

        public func encode(to encoder: any Encoder) throws {
            try shared.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(isPro, forKey: .isPro)
            if !samples.isEmpty { try container.encode(samples, forKey: .samples) }
            try container.encodeIfPresent(date, forKey: .date)
            try container.encode(mode, forKey: .mode)
        }
    }
}

extension HistoryDashboard.Params: JSONDirectDecodable {
    /// The step members, `is_pro`, `samples`, `date` and `mode` read directly.
    public init?(direct cursor: inout JSONCursor) {
        var shared = StepHistoryParams.DirectMembers()
        var isPro: Bool?
        var samples: [StepSampleParams]?
        var date: LocalDate?
        var mode: DashboardMode?
        let read = cursor.object { key, cursor in
            if key.is("samples") {
                guard samples == nil else { return false }
                samples = cursor.array(of: StepSampleParams.self)
                return samples != nil
            }
            if key.is("is_pro") {
                guard isPro == nil else { return false }
                isPro = cursor.bool()
                return isPro != nil
            }
            if key.is("date") {
                guard date == nil else { return false }
                date = cursor.fixedText(width: 10, LocalDate.init(checkedUTF8:))
                return date != nil
            }
            if key.is("mode") {
                guard mode == nil else { return false }
                mode = cursor.name(of: DashboardMode.self)
                return mode != nil
            }
            return shared.read(key, &cursor) ?? false
        }
        guard read, let shared = shared.value else { return nil }
        self.init(
            time: shared.time, goals: shared.goals, records: shared.records, samples: samples ?? [], date: date,
            mode: mode ?? .daily, weekStartsOn: shared.weekStartsOn, isPro: isPro ?? false)
    }
}
