import TallyCore

/// `history.month`: one month of the history calendar, as the grid of day cells and as list-mode rows. Served by
/// `tally.history`.
public enum HistoryMonth: TallyMethod {
    public static let name = "history.month"
    public static let service = TallyService.history

    /// The time frame, the goal keys, the records, the month, the grid's first column and `is_pro`, flat in
    /// `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        public var goals: GoalParams
        public var records: [DailyRecordParams]
        /// The month shown; default the month of today. Not after the current month.
        public var month: YearMonth?
        /// First column of the grid; default `sunday`.
        public var weekStartsOn: WeekStart
        /// Whether the user has Pro; a free user may open only the 3 most recent available months.
        public var isPro: Bool

        public init(
            time: RequestTime, goals: GoalParams, records: [DailyRecordParams], month: YearMonth? = nil,
            weekStartsOn: WeekStart = .sunday, isPro: Bool = false
        ) {
            self.time = time
            self.goals = goals
            self.records = records
            self.month = month
            self.weekStartsOn = weekStartsOn
            self.isPro = isPro
        }

        enum CodingKeys: String, CodingKey {
            case records, month
            case weekStartsOn = "week_starts_on"
            case isPro = "is_pro"
        }

        public init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            goals = try GoalParams(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            records = try container.decode([DailyRecordParams].self, forKey: .records)
            month = try container.decodeIfPresent(YearMonth.self, forKey: .month)
            weekStartsOn = try container.decodeIfPresent(WeekStart.self, forKey: .weekStartsOn) ?? .sunday
            isPro = try container.decodeIfPresent(Bool.self, forKey: .isPro) ?? false
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            try goals.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(records, forKey: .records)
            try container.encodeIfPresent(month, forKey: .month)
            try container.encode(weekStartsOn.rawValue, forKey: .weekStartsOn)
            try container.encode(isPro, forKey: .isPro)
        }

        /// Validates everything, checks the month is open to this user, and computes it.
        /// - Throws: `invalid_params` (a month after the current one, goal log, records), `payload_too_large`,
        ///   `pro_required` for a free user's month before the 3 most recent available months.
        public func result(limits: RequestLimits) throws(TallyError) -> Result {
            let today = time.referenceDay.today
            let settings = try goals.settings(limits: limits)
            let history = try DailyRecordParams.history(records, at: .params + "records", limits: limits)
            let available = AvailableMonths(history: history, today: today)
            let shown = month ?? available.current
            guard shown <= available.current else {
                throw .invalidParams(.params + "month", "is after the current month \(available.current)")
            }
            if !isPro, available.needsPro(shown) {
                throw .proRequired(.params + "month", "history before \(available.visible(isPro: false).first!)")
            }
            let calendarMonth = CalendarMonth(
                month: shown, history: history, goals: settings, today: today, weekStart: weekStartsOn)
            let visible = available.visible(isPro: isPro)
            return Result(
                calendarMonth, asOf: today, goalTrackingEnabled: settings.trackingEnabled,
                previousMonth: visible.last { $0 < shown }, nextMonth: visible.first { $0 > shown },
                futureRecordsIgnored: available.futureRecordsIgnored)
        }
    }
}
