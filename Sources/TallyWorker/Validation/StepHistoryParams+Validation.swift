import TallyCore
import TallyProtocol

extension StepHistoryParams {
    /// What the shared step keys hold, validated.
    struct Validated {
        let reference: ReferenceDay
        let goals: GoalSettings
        let history: StepHistory
    }

    /// Validates, in this order, the time frame, the goal log and the records.
    /// - Throws: `invalid_params` naming the field, `payload_too_large` for a list over `limits`.
    func validated(limits: RequestLimits) throws(TallyError) -> Validated {
        Validated(
            reference: try time.checkedReferenceDay(), goals: try goals.settings(limits: limits),
            history: try DailyRecordParams.history(records, at: .params + "records", limits: limits))
    }
}
