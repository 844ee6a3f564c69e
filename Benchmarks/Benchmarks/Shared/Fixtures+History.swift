import TallyCore
import TallyLoad
import TallyProtocol

extension Fixtures {
    /// The shared history keys over three years of daily records (1,095 days, 15 goal changes), as a Pro user.
    static func historyKeys() -> (time: RequestTime, goals: GoalParams, records: [DailyRecordParams]) {
        var generator = StepDataGenerator(seed: 42)
        return (
            RequestTime(timeZone: zone, today: today),
            GoalParams(log: generator.goalLog(endingOn: today, size: .threeYears)),
            generator.records(endingOn: today, size: .threeYears)
        )
    }

    /// `history.months` over three years of records.
    package static func historyMonthsParams() -> HistoryMonths.Params {
        let keys = historyKeys()
        return HistoryMonths.Params(time: keys.time, records: keys.records, isPro: true)
    }

    /// `history.month` for the month before last (a whole month of data) over three years of records.
    package static func historyMonthParams() -> HistoryMonth.Params {
        let keys = historyKeys()
        return HistoryMonth.Params(
            time: keys.time, goals: keys.goals, records: keys.records, month: today.yearMonth.previous?.previous,
            weekStartsOn: .monday, isPro: true)
    }

    /// `history.dashboard` for today over three years of records: `daily` with today's hourly samples, or
    /// `monthly`.
    package static func historyDashboardParams(_ mode: TallyProtocol.DashboardMode) -> HistoryDashboard.Params {
        let keys = historyKeys()
        var generator = StepDataGenerator(seed: 7)
        let samples = mode == .daily ? generator.samples(on: today, zone: calendar) : []
        return HistoryDashboard.Params(
            time: keys.time, goals: keys.goals, records: keys.records, samples: samples, mode: mode, isPro: true)
    }
}
