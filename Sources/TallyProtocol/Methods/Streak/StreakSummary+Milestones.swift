import TallyCore

extension StreakSummary {
    /// A trophy tier on the wire: `bronze` … `diamond`.
    public enum TierName: String, Codable, Sendable, Hashable, CaseIterable {
        case bronze, silver, gold, platinum, emerald, ruby, diamond

        public init(_ tier: MilestoneTier) {
            self =
                switch tier {
                case .bronze: .bronze
                case .silver: .silver
                case .gold: .gold
                case .platinum: .platinum
                case .emerald: .emerald
                case .ruby: .ruby
                case .diamond: .diamond
                }
        }
    }

    /// One tier of the milestones row.
    public struct MilestoneTierResult: Codable, Sendable, Hashable {
        public var tier: TierName
        /// Display name ("Bronze").
        public var name: String
        /// Streak days that earn it.
        public var days: Int
        /// Whether the current streak has earned it.
        public var earned: Bool

        public init(tier: TierName, name: String, days: Int, earned: Bool) {
            self.tier = tier
            self.name = name
            self.days = days
            self.earned = earned
        }
    }

    /// The trophies, judged on the current streak as the badge shows it.
    public struct MilestonesResult: Codable, Sendable, Hashable {
        /// The highest tier earned; null below 7 days.
        public var highestEarned: TierName?
        /// The next tier to unlock; null from 365 days on.
        public var nextTier: TierName?
        /// Days until `next_tier`; null when there is none.
        public var daysToNextTier: Int?
        /// All seven tiers in order, each with its earned flag.
        public var tiers: [MilestoneTierResult]

        public init(_ milestones: Milestones) {
            highestEarned = milestones.highestEarned.map(TierName.init)
            nextTier = milestones.next.map(TierName.init)
            daysToNextTier = milestones.daysToNext
            tiers = MilestoneTier.allCases.map {
                MilestoneTierResult(tier: TierName($0), name: $0.name, days: $0.days, earned: milestones.isEarned($0))
            }
        }

        enum CodingKeys: String, CodingKey {
            case highestEarned = "highest_earned"
            case nextTier = "next_tier"
            case daysToNextTier = "days_to_next_tier"
            case tiers
        }
    }
}
