extension StreakSummary {
    /// A trophy tier on the wire: `bronze` … `diamond`.
    public enum TierName: String, Codable, Sendable, Hashable, CaseIterable {
        case bronze, silver, gold, platinum, emerald, ruby, diamond
    }

}
