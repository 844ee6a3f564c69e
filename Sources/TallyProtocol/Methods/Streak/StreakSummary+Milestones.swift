extension StreakSummary {
    /// A trophy tier on the wire: `bronze` … `diamond`.
    public enum TierName: String, Codable, Sendable, Hashable, CaseIterable {
        case bronze, silver, gold, platinum, emerald, ruby, diamond
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

        public init(
            highestEarned: TierName?, nextTier: TierName?, daysToNextTier: Int?, tiers: [MilestoneTierResult]
        ) {
            self.highestEarned = highestEarned
            self.nextTier = nextTier
            self.daysToNextTier = daysToNextTier
            self.tiers = tiers
        }

        enum CodingKeys: String, CodingKey {
            case highestEarned = "highest_earned"
            case nextTier = "next_tier"
            case daysToNextTier = "days_to_next_tier"
            case tiers
        }
    }
}
