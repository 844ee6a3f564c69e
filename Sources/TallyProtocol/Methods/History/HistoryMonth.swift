import TallyCalendar
import TallyJSONCoding

/// `history.month`: one month of the history calendar, as the grid of day cells and as list-mode rows. Served by
/// `tally.history`.
public enum HistoryMonth: TallyMethod {
    public static let name = "history.month"
    public static let service = TallyService.history

    /// The shared step keys, `is_pro` and the month, flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var shared: StepHistoryParams
        /// Whether the user has Pro (every month with data) or not (the 3 most recent); default false. Tally does
        /// not check entitlements: the calling backend says so per request.
        public var isPro: Bool
        /// The month shown; default the month of today. Not after the current month.
        public var month: YearMonth?

        public init(
            time: RequestTime, goals: GoalParams, records: [DailyRecordParams] = [], month: YearMonth? = nil,
            weekStartsOn: WeekStart = .sunday, isPro: Bool = false
        ) {
            shared = StepHistoryParams(time: time, goals: goals, records: records, weekStartsOn: weekStartsOn)
            self.isPro = isPro
            self.month = month
        }

        enum CodingKeys: String, CodingKey {
            case isPro = "is_pro"
            case month
        }

        public init(from decoder: any Decoder) throws {
            shared = try StepHistoryParams(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            isPro = try container.decodeIfPresent(Bool.self, forKey: .isPro) ?? false
            month = try container.decodeIfPresent(YearMonth.self, forKey: .month)
        }

        public func encode(to encoder: any Encoder) throws {
            try shared.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(isPro, forKey: .isPro)
            try container.encodeIfPresent(month, forKey: .month)
        }
    }
}

extension HistoryMonth.Params: JSONDirectDecodable {
    /// The step members, `is_pro` and `month` read directly.
    public init?(direct cursor: inout JSONCursor) {
        var shared = StepHistoryParams.DirectMembers()
        var isPro: Bool?
        var month: YearMonth?
        let read = cursor.object { key, cursor in
            if key.is("is_pro") {
                guard isPro == nil else { return false }
                isPro = cursor.bool()
                return isPro != nil
            }
            if key.is("month") {
                guard month == nil else { return false }
                month = cursor.string().flatMap { try? YearMonth(parsing: $0) }
                return month != nil
            }
            return shared.read(key, &cursor) ?? false
        }
        guard read, let shared = shared.value else { return nil }
        self.init(
            time: shared.time, goals: shared.goals, records: shared.records, month: month,
            weekStartsOn: shared.weekStartsOn, isPro: isPro ?? false)
    }
}
