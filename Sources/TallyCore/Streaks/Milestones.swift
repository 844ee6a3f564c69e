/// Which trophies a streak has earned and what it unlocks next (the app's `PremiumBadgeTier.forStreak(_:)` and
/// `nextTier(for:)`).
///
/// Judged on the current streak as the badge shows it (today included once met), not on the best streak: the
/// trophies are a reward for keeping the streak alive, and a broken streak starts from no trophy again.
package struct Milestones: Sendable, Hashable {
    /// The streak length judged.
    package let streakDays: Int
    /// The highest tier earned, or `nil` below 7 days.
    package let highestEarned: MilestoneTier?
    /// The first tier not yet earned, or `nil` from 365 days on (every trophy is earned).
    package let next: MilestoneTier?

    /// - Parameter streakDays: the current streak as the badge shows it (≥ 0).
    package init(streakDays: Int) {
        self.streakDays = streakDays
        self.highestEarned = MilestoneTier.allCases.last { $0.days <= streakDays }
        self.next = MilestoneTier.allCases.first { $0.days > streakDays }
    }

    /// Days still to go until `next` is earned, or `nil` when there is no next tier.
    package var daysToNext: Int? { next.map { $0.days - streakDays } }

    /// Whether `tier` is earned.
    package func isEarned(_ tier: MilestoneTier) -> Bool { tier.days <= streakDays }
}
