import TallyCalendar
import TallyCore

/// `history.dashboard`: the home screen for a selected day: its step card, the chart of the chosen mode (hours of
/// the day, days of its week, days of its month) with totals, and whether the review prompt is due. Served by
/// `tally.history`.
public enum HistoryDashboard: TallyMethod {
    public static let name = "history.dashboard"
    public static let service = TallyService.history

    /// The shared history keys (`week_starts_on` picks the week of `weekly`), the samples, the selected day and
    /// the mode, flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var shared: StepHistoryParams
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
            shared = StepHistoryParams(
                time: time, goals: goals, records: records, weekStartsOn: weekStartsOn, isPro: isPro)
            self.samples = samples
            self.date = date
            self.mode = mode
        }

        enum CodingKeys: String, CodingKey {
            case samples, date, mode
        }

        public init(from decoder: any Decoder) throws {
            shared = try StepHistoryParams(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            samples = try container.decodeIfPresent([StepSampleParams].self, forKey: .samples) ?? []
            date = try container.decodeIfPresent(LocalDate.self, forKey: .date)
            mode = try container.decodeIfPresent(DashboardMode.self, forKey: .mode) ?? .daily
        }

        public func encode(to encoder: any Encoder) throws {
            try shared.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            if !samples.isEmpty { try container.encode(samples, forKey: .samples) }
            try container.encodeIfPresent(date, forKey: .date)
            try container.encode(mode.rawValue, forKey: .mode)
        }

        /// Validates everything and computes the dashboard.
        /// - Throws: `invalid_params` (a date after today, a chart reaching beyond the supported dates or instants,
        ///   goal log, records, samples), `payload_too_large`, `pro_required` for `weekly` or `monthly` without Pro.
        public func result(limits: RequestLimits) throws(TallyError) -> Result {
            let valid = try shared.validated(limits: limits)
            let reference = valid.reference
            let converted = try StepSampleParams.samples(samples, at: .params + "samples", limits: limits)
            let selected = date ?? reference.today
            guard selected <= reference.today else {
                throw .invalidParams(
                    .params + "date", "is after today (\(reference.today)): future days cannot be selected")
            }
            if mode.needsPro, !shared.isPro {
                throw .proRequired(.params + "mode", "the \(mode.rawValue) chart")
            }
            let dashboard: StepDashboard
            do {
                dashboard = try StepDashboard(
                    mode: mode, date: selected, history: valid.history, samples: converted, goals: valid.goals,
                    today: reference.today, now: reference.now, calendar: shared.time.calendar,
                    weekStart: shared.weekStartsOn)
            } catch {
                // The selected day is `date`, or today when the request leaves it out: either way `params.date`.
                throw .invalidParams(.params + "date", "\(error)")
            }
            let futureRecords = valid.history.countAfter(reference.today)
            return Result(
                dashboard, asOf: reference.today, futureRecordsIgnored: futureRecords, calendar: shared.time.calendar)
        }
    }
}

extension DashboardMode: Codable {}
