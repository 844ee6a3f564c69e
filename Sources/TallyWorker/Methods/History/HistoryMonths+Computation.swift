import TallyCore
import TallyJSONCoding
import TallyProtocol

extension HistoryMonths: ComputedMethod {
    /// Validates the time frame and the records, and lists the months the user may open.
    package static func result(for params: Params, limits: RequestLimits) throws(TallyError) -> Result {
        let today = try params.time.checkedReferenceDay().today
        let history = try DailyRecordParams.history(params.records, at: .params + "records", limits: limits)
        let available = AvailableMonths(history: history, today: today)
        return Result(
            asOf: today, currentMonth: available.current, months: Array(available.visible(isPro: params.isPro)),
            lockedMonths: available.lockedCount(isPro: params.isPro),
            futureRecordsIgnored: available.futureRecordsIgnored)
    }
}
