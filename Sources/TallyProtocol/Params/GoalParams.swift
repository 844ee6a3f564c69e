import TallyCalendar
import TallyCore

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

    /// The largest goal accepted: a daily goal beyond it is a client bug, not an ambition.
    public static let maximumGoal = 1_000_000

    /// Validates and converts to the core's goal settings.
    /// - Parameter path: where these keys sit (normally `params`).
    public func settings(at path: FieldPath = .params, limits: RequestLimits) throws(TallyError) -> GoalSettings {
        let logPath = path + "goal_log"
        try limits.check(log.count, at: logPath, unit: "goal changes")
        for (index, change) in log.enumerated() where change.goal > Self.maximumGoal {
            throw .invalidParams(logPath.index(index) + "goal", "must be ≤ \(Self.maximumGoal)")
        }
        do {
            let entries = log.map { GoalLog.Entry(effectiveDate: $0.effectiveDate, goal: $0.goal) }
            return GoalSettings(trackingEnabled: trackingEnabled, log: try GoalLog(entries))
        } catch {
            switch error {
            case .empty:
                throw .invalidParams(logPath, "needs at least one goal")
            case .nonPositiveGoal(let index):
                throw .invalidParams(logPath.index(index) + "goal", "must be > 0")
            case .duplicateEffectiveDate(let first, let second):
                throw .invalidParams(
                    logPath.index(second) + "effective_date",
                    "two goal changes take effect on \(log[second].effectiveDate)",
                    conflictsWith: logPath.index(first) + "effective_date",
                    value: log[second].effectiveDate.description)
            }
        }
    }
}
