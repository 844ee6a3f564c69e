import TallyCore
import TallyProtocol
import Testing

@Suite struct MilestonesTests {
    @Test(
        arguments: [
            // (streak days, highest earned, next, days to next)
            (0, nil, MilestoneTier.bronze, 7),
            (6, nil, .bronze, 1),
            (7, .bronze, .silver, 7),
            (13, .bronze, .silver, 1),
            (14, .silver, .gold, 16),
            (29, .silver, .gold, 1),
            (30, .gold, .platinum, 30),
            (60, .platinum, .emerald, 40),
            (100, .emerald, .ruby, 100),
            (364, .ruby, .diamond, 1),
        ] as [(Int, MilestoneTier?, MilestoneTier, Int)])
    func boundaries(days: Int, highest: MilestoneTier?, next: MilestoneTier, remaining: Int) {
        let milestones = Milestones(streakDays: days)
        #expect(milestones.highestEarned == highest)
        #expect(milestones.next == next)
        #expect(milestones.daysToNext == remaining)
    }

    @Test(arguments: [365, 400])
    func everyTrophyFromADiamondOn(days: Int) {
        let milestones = Milestones(streakDays: days)
        #expect(milestones.highestEarned == .diamond)
        #expect(milestones.next == nil)
        #expect(milestones.daysToNext == nil)
        #expect(MilestoneTier.allCases.allSatisfy { milestones.isEarned($0) })
    }

    @Test func earnedFlagsAtTwentyNineAndThirty() {
        let before = Milestones(streakDays: 29)
        #expect(MilestoneTier.allCases.map { before.isEarned($0) } == [true, true, false, false, false, false, false])
        let after = Milestones(streakDays: 30)
        #expect(MilestoneTier.allCases.map { after.isEarned($0) } == [true, true, true, false, false, false, false])
    }

    @Test func tiersInOrderWithTheirNames() {
        #expect(MilestoneTier.allCases.map(\.days) == [7, 14, 30, 60, 100, 200, 365])
        let names = ["Bronze", "Silver", "Gold", "Platinum", "Emerald", "Ruby", "Diamond"]
        #expect(MilestoneTier.allCases.map(\.name) == names)
    }
}
