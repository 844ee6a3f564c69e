import TallyCore
import TallyJSONCoding
import TallyProtocol

/// The keys every step method but `history.months` reads, flat in its params: the time frame, the goal keys, the
/// daily records and the first day of the week. `streak.summary` takes exactly these; `history.month` and
/// `history.dashboard` take more beside them.
protocol StepHistoryParams {
    var time: RequestTime { get }
    var goals: GoalParams { get }
    var records: [DailyRecordParams] { get }
    var weekStartsOn: WeekStart { get }
}

extension StreakSummary.Params: StepHistoryParams {}
extension HistoryMonth.Params: StepHistoryParams {}
extension HistoryDashboard.Params: StepHistoryParams {}

/// What the shared step keys hold, validated.
struct ValidatedStepHistory {
    let reference: ReferenceDay
    let goals: GoalSettings
    let history: StepHistory
}

extension StepHistoryParams {
    /// Validates, in this order, the time frame, the goal log and the records.
    /// - Throws: `invalid_params` naming the field, `payload_too_large` for a list over `limits`.
    func validated(limits: RequestLimits) throws(TallyError) -> ValidatedStepHistory {
        ValidatedStepHistory(
            reference: try time.checkedReferenceDay(), goals: try goals.settings(limits: limits),
            history: try DailyRecordParams.history(records, at: .params + "records", limits: limits))
    }
}
