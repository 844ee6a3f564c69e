import TallyCore
import TallyJSONCoding
import TallyProtocol

extension HistoryMonth: ComputedMethod {
    /// Validates everything, checks that the month is open to this user, and lays it out.
    /// - Throws: `invalid_params` (a month after the current one, goal log, records), `payload_too_large`,
    ///   `pro_required` for a free user's month before the 3 most recent available months.
    package static func result(for params: Params, limits: RequestLimits) throws(TallyError) -> Result {
        let valid = try params.validated(limits: limits)
        let today = valid.reference.today
        let available = AvailableMonths(history: valid.history, today: today)
        let shown = params.month ?? available.current
        guard shown <= available.current else {
            throw .invalidParams(.params + "month", "is after the current month \(available.current)")
        }
        if !params.isPro, available.needsPro(shown) {
            throw .proRequired(.params + "month", "history before \(available.visible(isPro: false).first!)")
        }
        let month = CalendarMonth(
            month: shown, history: valid.history, goals: valid.goals, today: today,
            weekStart: params.weekStartsOn)
        let visible = available.visible(isPro: params.isPro)
        return Result(
            month: month.month, asOf: today, goalTrackingEnabled: valid.goals.trackingEnabled,
            days: month.days.map(HistoryDayResult.init), grid: WeekGridResult(month.grid),
            rows: month.rows.map(HistoryDayResult.init), totals: StepTotalsResult(month.totals),
            completedDays: month.completedDays, previousMonth: visible.last { $0 < shown },
            nextMonth: visible.first { $0 > shown }, futureRecordsIgnored: available.futureRecordsIgnored)
    }
}
