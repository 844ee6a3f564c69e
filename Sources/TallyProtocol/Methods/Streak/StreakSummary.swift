import TallyCalendar
import TallyCore

/// `streak.summary`: everything the streak sheet shows (current and best streak, today's card, milestones and the
/// 30-day heatmap) from the request's goal log and daily records. Served by `tally.streak`.
public enum StreakSummary: TallyMethod {
    public static let name = "streak.summary"
    public static let service = TallyService.streak

    /// The time frame, the goal keys, the records and the heatmap's first column, all flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        public var goals: GoalParams
        /// Every daily record the client has (default none); records after today are ignored (and counted in the
        /// result).
        public var records: [DailyRecordParams]
        /// First column of the heatmap grid; default `sunday`.
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

        /// Validates everything (whether or not goal tracking is on: a request is valid or not regardless of a
        /// switch) and computes the report.
        /// - Throws: `invalid_params` naming the field (today before 0001-01-30, goal log, records, duplicate
        ///   dates naming both records); `payload_too_large` for a list over `limits`.
        public func report(limits: RequestLimits) throws(TallyError) -> StreakReport {
            let today = try time.checkedReferenceDay().today
            guard today >= StreakReport.earliestToday else {
                let field: FieldPath =
                    switch time.reference {
                    case .now: .params + "now"
                    case .today: .params + "today"
                    }
                throw .invalidParams(
                    field, "must be \(StreakReport.earliestToday) or later: the heatmap needs the 29 days before today")
            }
            let settings = try goals.settings(limits: limits)
            let history = try DailyRecordParams.history(records, at: .params + "records", limits: limits)
            return StreakReport(
                history: history, goals: settings, today: today, weekStart: weekStartsOn,
                days: StreakDays(calendar: time.calendar))
        }
    }
}
