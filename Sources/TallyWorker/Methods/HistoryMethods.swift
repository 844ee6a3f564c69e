import TallyProtocol

extension MethodRegistry {
    /// Registers `history.*` on `tally.history`.
    public mutating func registerHistoryMethods() {
        register(HistoryMonths.self) { params, context throws(TallyError) in
            try params.result(limits: context.limits)
        }
        register(HistoryMonth.self) { params, context throws(TallyError) in
            try params.result(limits: context.limits)
        }
        register(HistoryDashboard.self) { params, context throws(TallyError) in
            try params.result(limits: context.limits)
        }
    }
}
