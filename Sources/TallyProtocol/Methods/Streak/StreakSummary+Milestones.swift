extension StreakSummary {
    /// A trophy tier on the wire: `bronze` … `diamond`.
    public enum TierName: String, Codable, Sendable, Hashable, CaseIterable {
        /// Bronze, earned by a current streak of 7 days: the first tier.
        case bronze
        /// Silver, earned at 14 days.
        case silver
        /// Gold, earned at 30 days.
        case gold
        /// Platinum, earned at 60 days.
        case platinum
        /// Emerald, earned at 100 days.
        case emerald
        /// Ruby, earned at 200 days.
        case ruby
        /// Diamond, earned at 365 days: the last tier, after which there is no next one.
        case diamond
    }

}
