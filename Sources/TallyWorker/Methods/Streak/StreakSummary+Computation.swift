import TallyCore
import TallyJSONCoding
import TallyProtocol

extension StreakSummary: ComputedMethod {
    /// Validates everything (whether or not goal tracking is on: a request is valid or not regardless of a switch)
    /// and computes the streak sheet, or only `status` and `as_of` with goal tracking off.
    /// - Throws: `invalid_params` naming the field (today before 0001-01-30, goal log, records, duplicate dates
    ///   naming both records); `payload_too_large` for a list over `limits`.
    package static func result(for params: Params, limits: RequestLimits) throws(TallyError) -> Result {
        let today = try params.time.checkedReferenceDay().today
        guard today >= StreakReport.earliestToday else {
            let field: FieldPath =
                switch params.time.reference {
                case .now: .params + "now"
                case .today: .params + "today"
                }
            throw .invalidParams(
                field, "must be \(StreakReport.earliestToday) or later: the heatmap needs the 29 days before today")
        }
        let settings = try params.goals.settings(limits: limits)
        let history = try DailyRecordParams.history(params.records, at: .params + "records", limits: limits)
        let report = StreakReport(
            history: history, goals: settings, today: today, weekStart: params.weekStartsOn,
            days: StreakDays(calendar: params.time.calendar))
        switch report {
        case .goalTrackingOff(let today):
            return Result(status: .goalTrackingOff, asOf: today)
        case .active(let active):
            return Result(
                status: .active, asOf: active.today, currentStreak: CurrentStreakResult(active.streaks),
                bestStreak: BestStreakResult(active.streaks), today: TodayResult(active.todayProgress),
                milestones: MilestonesResult(active.milestones), heatmap: HeatmapResult(active.heatmap),
                futureRecordsIgnored: active.streaks.futureRecordsIgnored)
        }
    }
}
