import TallyCore
import TallyProtocol

// The sections of the streak sheet, built from TallyCore's report.

extension StreakSummary.StepStreakFigures {
    /// A run's figures, average steps to 2 decimals; without a run days 0, total 0, dates and average null.
    init(_ run: StreakRun?) {
        self.init(
            days: run?.count ?? 0, startDate: run?.start, endDate: run?.end,
            averageSteps: run.map { FigureRounding.rounded($0.averageSteps, places: 2) },
            totalSteps: run?.totalSteps ?? 0)
    }
}

extension StreakSummary.CurrentStreakResult {
    init(_ streaks: Streaks) {
        self.init(
            figures: StreakSummary.StepStreakFigures(streaks.current),
            fact: StreakSummary.IncludesToday(includesToday: streaks.todayGoalMet))
    }
}

extension StreakSummary.BestStreakResult {
    init(_ streaks: Streaks) {
        self.init(
            figures: StreakSummary.StepStreakFigures(streaks.best),
            fact: StreakSummary.IsCurrent(isCurrent: streaks.bestIsCurrent))
    }
}

extension StreakSummary.TodayResult {
    init(_ today: TodayProgress) {
        self.init(
            date: today.date, steps: today.steps, goal: today.goal,
            progress: today.progress.map { FigureRounding.rounded($0) }, state: today.state,
            stepsToGo: today.stepsToGo, lockedInDay: today.lockedInDay)
    }
}

extension StreakSummary.MilestonesResult {
    /// Every tier in order, each with whether the current streak earned it.
    init(_ milestones: Milestones) {
        self.init(
            highestEarned: milestones.highestEarned.map(StreakSummary.TierName.init),
            nextTier: milestones.next.map(StreakSummary.TierName.init), daysToNextTier: milestones.daysToNext,
            tiers: MilestoneTier.allCases.map { tier in
                StreakSummary.MilestoneTierResult(
                    tier: StreakSummary.TierName(tier), name: tier.name, days: tier.days,
                    earned: milestones.isEarned(tier))
            })
    }
}

extension StreakSummary.HeatmapResult {
    /// The 30 days, intensities to 4 decimals, and their week layout.
    init(_ heatmap: StreakHeatmap) {
        self.init(
            startDate: heatmap.start, endDate: heatmap.end, maxSteps: heatmap.maxSteps,
            days: heatmap.days.map { day in
                StreakSummary.HeatmapDayResult(
                    date: day.date, steps: day.steps, goal: day.goal, state: day.state,
                    inCurrentStreak: day.inCurrentStreak, isToday: day.isToday,
                    intensity: day.intensity.map { FigureRounding.rounded($0) })
            },
            grid: WeekGridResult(heatmap.grid))
    }
}
