import Hummingbird
import TallyProtocol

/// What the app's streak screen shows: this API's own answer, made from Tally's `streak.summary` result, so that the
/// app depends on this backend's contract and not on Tally's.
///
/// ```json
/// {"as_of": "2026-11-24", "goal_tracking": true, "current_streak_days": 12, "best_streak_days": 12,
///  "today": {"steps": 3000, "goal": 8000, "steps_to_go": 5000, "state": "in_progress"}, "next_milestone": "silver"}
/// ```
struct StreakCard: ResponseEncodable {
    struct Today: Encodable {
        /// Null when nothing was recorded today.
        var steps: Int?
        var goal: Int
        var stepsToGo: Int
        /// `completed`, `in_progress`, `zero` or `no_data`.
        var state: String

        enum CodingKeys: String, CodingKey {
            case steps, goal, state
            case stepsToGo = "steps_to_go"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(steps, forKey: .steps)
            try container.encode(goal, forKey: .goal)
            try container.encode(stepsToGo, forKey: .stepsToGo)
            try container.encode(state, forKey: .state)
        }
    }

    /// Today in the user's zone, `yyyy-MM-dd`.
    var asOf: String
    /// False when the user turned goal tracking off; then nothing else is shown.
    var goalTracking: Bool
    var currentStreakDays: Int?
    var bestStreakDays: Int?
    var today: Today?
    /// The next milestone tier (`bronze` … `diamond`); absent once every tier is earned.
    var nextMilestone: String?

    init(_ summary: StreakSummary.Result) {
        asOf = summary.asOf.description
        goalTracking = summary.status == .active
        currentStreakDays = summary.currentStreak?.days
        bestStreakDays = summary.bestStreak?.days
        today = summary.today.map {
            Today(steps: $0.steps, goal: $0.goal, stepsToGo: $0.stepsToGo, state: $0.state.rawValue)
        }
        nextMilestone = summary.milestones?.nextTier?.rawValue
    }

    enum CodingKeys: String, CodingKey {
        case today
        case asOf = "as_of"
        case goalTracking = "goal_tracking"
        case currentStreakDays = "current_streak_days"
        case bestStreakDays = "best_streak_days"
        case nextMilestone = "next_milestone"
    }
}
