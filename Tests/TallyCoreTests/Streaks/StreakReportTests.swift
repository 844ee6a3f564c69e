import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct StreakReportTests {
    typealias F = StepFixtures

    @Test func goalTrackingOffOffersNoStreaks() {
        let history = F.history(from: "2026-05-06", [9_000, 9_000, 9_000])
        let settings = GoalSettings(trackingEnabled: false, log: GoalLog(constant: 8_000))
        let report = StreakReport(history: history, goals: settings, today: F.day("2026-05-08"), weekStart: .sunday)
        #expect(report == .goalTrackingOff(today: F.day("2026-05-08")))
    }

    @Test func activeReportPutsThePiecesTogether() {
        // Today 2026-05-10 met at 12,000: streak 05-06...05-10, 5 days; bronze needs 2 more.
        let history = F.history(from: "2026-05-05", [7_999, 9_000, 8_000, 10_000, 8_500, 12_000])
        let settings = GoalSettings(trackingEnabled: true, log: GoalLog(constant: 8_000))
        let report = StreakReport(history: history, goals: settings, today: F.day("2026-05-10"), weekStart: .monday)
        guard case .active(let active) = report else {
            Issue.record("expected an active report")
            return
        }
        #expect(active.today == F.day("2026-05-10"))
        #expect(active.streaks.currentCount == 5)
        #expect(active.milestones.highestEarned == nil)
        #expect(active.milestones.next == .bronze)
        #expect(active.milestones.daysToNext == 2)
        #expect(active.todayProgress.lockedInDay == 5)
        #expect(active.heatmap.grid.weekStart == .monday)
        #expect(active.heatmap.days.filter(\.inCurrentStreak).count == 5)
    }

    @Test func aFourHundredDayStreakIsDiamondWithNoNextTier() {
        let history = F.history(from: "2025-05-27", Array(repeating: 10_000, count: 400))
        let settings = GoalSettings(trackingEnabled: true, log: GoalLog(constant: 10_000))
        let report = StreakReport(history: history, goals: settings, today: F.day("2026-06-30"), weekStart: .sunday)
        guard case .active(let active) = report else {
            Issue.record("expected an active report")
            return
        }
        #expect(active.milestones.streakDays == 400)
        #expect(active.milestones.highestEarned == .diamond)
        #expect(active.milestones.next == nil)
        #expect(active.todayProgress.lockedInDay == 400)
    }

    @Test func theEarliestTodayLeavesRoomForTheHeatmap() {
        #expect(StreakReport.earliestToday == F.day("0001-01-30"))
        let report = StreakReport(
            history: F.history([DailyRecordParams]()),
            goals: GoalSettings(trackingEnabled: true, log: GoalLog(constant: 1)),
            today: StreakReport.earliestToday, weekStart: .sunday)
        guard case .active(let active) = report else {
            Issue.record("expected an active report")
            return
        }
        #expect(active.heatmap.days.first?.date == LocalDate.earliest)
        #expect(Set(active.heatmap.days.map(\.date)).count == 30)
    }
}
