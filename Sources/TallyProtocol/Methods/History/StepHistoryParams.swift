import TallyCalendar

/// The keys every step method but `history.months` reads, flat in its params: the time frame, the goal keys, the
/// daily records and `week_starts_on` (default `sunday`). `streak.summary` takes exactly these; `history.month`
/// and `history.dashboard` add their own beside them.
public struct StepHistoryParams: Codable, Sendable, Hashable {
    public var time: RequestTime
    public var goals: GoalParams
    /// Every daily record the client has (default none); records after today are ignored (and counted in the result).
    public var records: [DailyRecordParams]
    /// The first column of every week the method lays out (the month grid, the weekly chart, the heatmap).
    public var weekStartsOn: WeekStart

    public init(
        time: RequestTime, goals: GoalParams, records: [DailyRecordParams] = [], weekStartsOn: WeekStart = .sunday
    ) {
        self.time = time
        self.goals = goals
        self.records = records
        self.weekStartsOn = weekStartsOn
    }

    enum CodingKeys: String, CodingKey {
        case records
        case weekStartsOn = "week_starts_on"
    }

    public init(from decoder: any Decoder) throws {
        time = try RequestTime(from: decoder)
        goals = try GoalParams(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        records = try container.decodeIfPresent([DailyRecordParams].self, forKey: .records) ?? []
        weekStartsOn = try container.decodeIfPresent(WeekStart.self, forKey: .weekStartsOn) ?? .sunday
    }

    public func encode(to encoder: any Encoder) throws {
        try time.encode(to: encoder)
        try goals.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(records, forKey: .records)
        try container.encode(weekStartsOn.rawValue, forKey: .weekStartsOn)
    }
}
