import TallyCalendar
import TallyCore

/// The keys `history.month` and `history.dashboard` share, flat in their params: the time frame, the goal keys,
/// the daily records, `week_starts_on` (default `sunday`) and `is_pro` (default false).
public struct StepHistoryParams: Codable, Sendable, Hashable {
    public var time: RequestTime
    public var goals: GoalParams
    /// Every daily record the client has (default none); records after today are ignored (and counted in the result).
    public var records: [DailyRecordParams]
    public var weekStartsOn: WeekStart
    /// Whether the user has Pro. Tally does not check entitlements: the calling backend says so per request.
    public var isPro: Bool

    public init(
        time: RequestTime, goals: GoalParams, records: [DailyRecordParams] = [], weekStartsOn: WeekStart = .sunday,
        isPro: Bool = false
    ) {
        self.time = time
        self.goals = goals
        self.records = records
        self.weekStartsOn = weekStartsOn
        self.isPro = isPro
    }

    enum CodingKeys: String, CodingKey {
        case records
        case weekStartsOn = "week_starts_on"
        case isPro = "is_pro"
    }

    public init(from decoder: any Decoder) throws {
        time = try RequestTime(from: decoder)
        goals = try GoalParams(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        records = try container.decodeIfPresent([DailyRecordParams].self, forKey: .records) ?? []
        weekStartsOn = try container.decodeIfPresent(WeekStart.self, forKey: .weekStartsOn) ?? .sunday
        isPro = try container.decodeIfPresent(Bool.self, forKey: .isPro) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        try time.encode(to: encoder)
        try goals.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(records, forKey: .records)
        try container.encode(weekStartsOn.rawValue, forKey: .weekStartsOn)
        try container.encode(isPro, forKey: .isPro)
    }

    /// What the shared keys hold, validated.
    public struct Validated: Sendable {
        public let reference: ReferenceDay
        public let goals: GoalSettings
        public let history: StepHistory
    }

    /// Validates the goal log and the records.
    /// - Throws: `invalid_params` naming the field, `payload_too_large` for a list over `limits`.
    public func validated(limits: RequestLimits) throws(TallyError) -> Validated {
        Validated(
            reference: try time.checkedReferenceDay(), goals: try goals.settings(limits: limits),
            history: try DailyRecordParams.history(records, at: .params + "records", limits: limits))
    }
}
