import TallyCore
import TallyJSONCoding
import TallyProtocol

extension GoalParams {
    /// The largest goal accepted: a daily goal beyond it is a client bug, not an ambition.
    static let maximumGoal = 1_000_000

    /// Validates the goal keys as the core's goal settings.
    /// - Parameter path: where these keys sit (normally `params`).
    package func settings(at path: FieldPath = .params, limits: RequestLimits) throws(TallyError) -> GoalSettings {
        let logPath = path + CodingKeys.log
        try limits.check(log.count, at: logPath, unit: "goal changes")
        for (index, change) in log.enumerated() where change.goal > Self.maximumGoal {
            throw .invalidParams(logPath.index(index) + GoalChange.CodingKeys.goal, "must be ≤ \(Self.maximumGoal)")
        }
        do {
            return GoalSettings(trackingEnabled: trackingEnabled, log: try GoalLog(log))
        } catch {
            switch error {
            case .empty:
                throw .invalidParams(logPath, "needs at least one goal")
            case .nonPositiveGoal(let index):
                throw .invalidParams(logPath.index(index) + GoalChange.CodingKeys.goal, "must be > 0")
            case .duplicateEffectiveDate(let first, let second):
                throw .invalidParams(
                    logPath.index(second) + GoalChange.CodingKeys.effectiveDate,
                    "two goal changes take effect on \(log[second].effectiveDate)",
                    conflictsWith: logPath.index(first) + GoalChange.CodingKeys.effectiveDate,
                    value: log[second].effectiveDate.description)
            }
        }
    }
}
