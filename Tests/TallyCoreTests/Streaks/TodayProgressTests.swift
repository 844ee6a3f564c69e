import TallyCore
import TallyProtocol
import Testing

@Suite struct TodayProgressTests {
    typealias F = StepFixtures

    func progress(_ history: StepHistory, goals: GoalLog = GoalLog(constant: 8_000)) -> TodayProgress {
        let today = F.day("2026-05-10")
        let streaks = Streaks(history: history, goals: goals, today: today)
        return TodayProgress(today: today, history: history, goals: goals, streaks: streaks)
    }

    @Test func toGoThenLockedIn() {
        // Streak 05-06...05-09 (4 days); today 3,000 of 8,000: 5,000 to go.
        let open = progress(F.history(from: "2026-05-06", [9_000, 8_000, 10_000, 8_500, 3_000]))
        #expect(open.steps == 3_000)
        #expect(open.goal == 8_000)
        #expect(open.stepsToGo == 5_000)
        #expect(open.state == .inProgress)
        #expect(open.lockedInDay == nil)
        #expect(open.progress == 0.375)

        // Today at 12,000: day 5 locked in, nothing to go, progress capped at 1.
        let met = progress(F.history(from: "2026-05-06", [9_000, 8_000, 10_000, 8_500, 12_000]))
        #expect(met.stepsToGo == 0)
        #expect(met.state == .completed)
        #expect(met.lockedInDay == 5)
        #expect(met.progress == 1)
    }

    @Test func noRecordTodayIsNoDataWithTheWholeGoalToGo() {
        let today = progress(F.history(from: "2026-05-08", [9_000, 9_000]))
        #expect(today.steps == nil)
        #expect(today.state == .noData)
        #expect(today.progress == nil)
        #expect(today.stepsToGo == 8_000)
        #expect(today.lockedInDay == nil)
    }

    @Test func todayIsJudgedAgainstTodaysGoal() {
        // The goal rose to 12,000 today: 10,000 steps leave 2,000 to go.
        let goals = F.goals([("2026-01-01", 8_000), ("2026-05-10", 12_000)])
        let today = progress(F.history(from: "2026-05-09", [9_000, 10_000]), goals: goals)
        #expect(today.goal == 12_000)
        #expect(today.stepsToGo == 2_000)
        #expect(today.state == .inProgress)
    }

    @Test func exactlyTheGoalLocksInDayOneAfterABreak() {
        let today = progress(F.history(from: "2026-05-09", [0, 8_000]))
        #expect(today.state == .completed)
        #expect(today.stepsToGo == 0)
        #expect(today.lockedInDay == 1)
    }
}
