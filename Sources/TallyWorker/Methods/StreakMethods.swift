import TallyProtocol

extension MethodRegistry {
    /// Registers `streak.*` on `tally.streak`.
    public mutating func registerStreakMethods() {
        register(StreakSummary.self) { params, context throws(TallyError) in
            StreakSummary.Result(try params.report(limits: context.limits))
        }
    }
}
