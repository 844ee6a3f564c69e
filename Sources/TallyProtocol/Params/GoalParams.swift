import TallyCalendar

/// A goal change on the wire: `{"effective_date": "2026-01-01", "goal": 8000}`.
public struct GoalChange: Codable, Sendable, Hashable {
    public var effectiveDate: LocalDate
    public var goal: Int

    public init(effectiveDate: LocalDate, goal: Int) {
        self.effectiveDate = effectiveDate
        self.goal = goal
    }

    enum CodingKeys: String, CodingKey {
        case goal
        case effectiveDate = "effective_date"
    }
}

/// The goal keys every step method embeds in its params:
/// `goal_tracking_enabled` (default true; the app's `enableDailyStepGoal`) and `goal_log` (at least one entry).
public struct GoalParams: Codable, Sendable, Hashable {
    public var trackingEnabled: Bool
    public var log: [GoalChange]

    public init(trackingEnabled: Bool = true, log: [GoalChange]) {
        self.trackingEnabled = trackingEnabled
        self.log = log
    }

    enum CodingKeys: String, CodingKey {
        case trackingEnabled = "goal_tracking_enabled"
        case log = "goal_log"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        trackingEnabled = try container.decodeIfPresent(Bool.self, forKey: .trackingEnabled) ?? true
        log = try container.decode([GoalChange].self, forKey: .log)
    }
}
