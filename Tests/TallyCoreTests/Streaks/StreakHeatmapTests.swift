import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct StreakHeatmapTests {
    typealias F = StepFixtures

    func heatmap(
        _ history: StepHistory, today: String = "2026-05-30", goals: GoalLog = GoalLog(constant: 10_000)
    )
        -> StreakHeatmap
    {
        let streaks = Streaks(history: history, goals: goals, today: F.day(today))
        return StreakHeatmap(
            today: F.day(today), history: history, goals: goals, current: streaks.current, weekStart: .sunday)
    }

    func expectIntensity(_ actual: Double?, _ expected: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let actual else {
            Issue.record("no intensity, expected \(expected)", sourceLocation: sourceLocation)
            return
        }
        #expect(abs(actual - expected) < 1e-12, sourceLocation: sourceLocation)
    }

    @Test func statesIntensitiesAndTheCurrentStreak() {
        // Goal 10,000, today Saturday 2026-05-30; the window is 05-01...05-30 (indices 0...29).
        // 04-30 (50,000) lies outside the window and must not set the maximum, which is 05-29's 20,000.
        let history = F.history([
            ("2026-04-30", 50_000), ("2026-05-01", 2_000), ("2026-05-26", 10_000), ("2026-05-28", 0),
            ("2026-05-29", 20_000), ("2026-05-30", 5_000),
        ])
        let map = heatmap(history)
        #expect(map.days.count == 30)
        #expect(map.days.first?.date == F.day("2026-05-01"))
        #expect(map.days.last?.date == F.day("2026-05-30"))
        #expect(map.maxSteps == 20_000)

        let first = map.days[0]  // 2,000: 0.15 + 0.1 × 0.85 = 0.235
        #expect(first.state == .inProgress)
        expectIntensity(first.intensity, 0.235)

        let reached = map.days[25]  // 05-26, exactly the goal: 0.15 + 0.5 × 0.85 = 0.575
        #expect(reached.state == .completed)
        expectIntensity(reached.intensity, 0.575)
        #expect(!reached.inCurrentStreak)  // 05-27 has no data, so 05-26 is not in the current streak

        let noData = map.days[26]  // 05-27
        #expect(noData.state == .noData)
        #expect(noData.steps == nil)
        #expect(noData.intensity == nil)

        let zero = map.days[27]  // 05-28
        #expect(zero.state == .zero)
        #expect(zero.steps == 0)
        #expect(zero.intensity == nil)

        let best = map.days[28]  // 05-29, the maximum: full intensity, the only day of the current streak
        #expect(best.state == .completed)
        expectIntensity(best.intensity, 1)
        #expect(best.inCurrentStreak)
        #expect(!best.isToday)

        let today = map.days[29]  // 5,000: 0.15 + 0.25 × 0.85 = 0.3625, not met yet
        #expect(today.isToday)
        #expect(today.state == .inProgress)
        #expect(!today.inCurrentStreak)
        expectIntensity(today.intensity, 0.3625)

        #expect(map.days.filter(\.inCurrentStreak).count == 1)
        #expect(map.days.filter(\.isToday).count == 1)
        #expect(map.days.filter { $0.state == .noData }.count == 25)
    }

    @Test func maximumZeroMeansNoIntensityAtAll() {
        let map = heatmap(F.history([("2026-05-29", 0), ("2026-05-30", 0)]))
        #expect(map.maxSteps == 0)
        #expect(map.days.allSatisfy { $0.intensity == nil })
        #expect(map.days[28].state == .zero)
        #expect(map.days[27].state == .noData)
    }

    @Test func noRecordsInTheWindowHasNoMaximum() {
        let map = heatmap(F.history([("2026-03-01", 12_000)]))
        #expect(map.maxSteps == nil)
        #expect(map.days.allSatisfy { $0.state == .noData && $0.intensity == nil })
    }

    @Test func eachDayCarriesItsOwnGoal() {
        let goals = F.goals([("2026-01-01", 8_000), ("2026-05-20", 12_000)])
        let map = heatmap(F.history([("2026-05-19", 9_000), ("2026-05-20", 9_000)]), goals: goals)
        #expect(map.days[18].goal == 8_000)  // 05-19
        #expect(map.days[18].state == .completed)
        #expect(map.days[19].goal == 12_000)  // 05-20
        #expect(map.days[19].state == .inProgress)
    }

    @Test func todayMetMarksTheWholeStreakIncludingToday() {
        // 05-27...05-30 all met: four cells in the current streak, today among them.
        let map = heatmap(F.history(from: "2026-05-27", [10_000, 11_000, 12_000, 10_500]))
        #expect(
            map.days.filter(\.inCurrentStreak).map(\.date) == [
                F.day("2026-05-27"), F.day("2026-05-28"), F.day("2026-05-29"), F.day("2026-05-30"),
            ])
        #expect(map.days[29].inCurrentStreak)
    }

    @Test func aStreakLongerThanTheWindowFillsIt() {
        // 04-01...05-30 is 30 + 30 = 60 days, all met: every cell is in the streak and at the maximum.
        let map = heatmap(F.history(from: "2026-04-01", Array(repeating: 10_000, count: 60)), today: "2026-05-30")
        #expect(map.days.allSatisfy { $0.inCurrentStreak })
        #expect(map.days.allSatisfy { $0.intensity == 1 })
    }
}
