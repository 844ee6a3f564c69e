import TallyCalendar
import TallyCore

/// `history.month`: one month of the history calendar, as the grid of day cells and as list-mode rows. Served by
/// `tally.history`.
public enum HistoryMonth: TallyMethod {
    public static let name = "history.month"
    public static let service = TallyService.history

    /// The shared history keys and the month, flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var shared: StepHistoryParams
        /// The month shown; default the month of today. Not after the current month.
        public var month: YearMonth?

        public init(
            time: RequestTime, goals: GoalParams, records: [DailyRecordParams] = [], month: YearMonth? = nil,
            weekStartsOn: WeekStart = .sunday, isPro: Bool = false
        ) {
            shared = StepHistoryParams(
                time: time, goals: goals, records: records, weekStartsOn: weekStartsOn, isPro: isPro)
            self.month = month
        }

        enum CodingKeys: String, CodingKey {
            case month
        }

        public init(from decoder: any Decoder) throws {
            shared = try StepHistoryParams(from: decoder)
            month = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(YearMonth.self, forKey: .month)
        }

        public func encode(to encoder: any Encoder) throws {
            try shared.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(month, forKey: .month)
        }

        /// Validates everything, checks the month is open to this user, and computes it.
        /// - Throws: `invalid_params` (a month after the current one, goal log, records), `payload_too_large`,
        ///   `pro_required` for a free user's month before the 3 most recent available months.
        public func result(limits: RequestLimits) throws(TallyError) -> Result {
            let valid = try shared.validated(limits: limits)
            let today = valid.reference.today
            let available = AvailableMonths(history: valid.history, today: today)
            let shown = month ?? available.current
            guard shown <= available.current else {
                throw .invalidParams(.params + "month", "is after the current month \(available.current)")
            }
            if !shared.isPro, available.needsPro(shown) {
                throw .proRequired(.params + "month", "history before \(available.visible(isPro: false).first!)")
            }
            let calendarMonth = CalendarMonth(
                month: shown, history: valid.history, goals: valid.goals, today: today, weekStart: shared.weekStartsOn)
            let visible = available.visible(isPro: shared.isPro)
            return Result(
                calendarMonth, asOf: today, goalTrackingEnabled: valid.goals.trackingEnabled,
                previousMonth: visible.last { $0 < shown }, nextMonth: visible.first { $0 > shown },
                futureRecordsIgnored: available.futureRecordsIgnored)
        }
    }
}
