import TallyProtocol

extension MethodRegistry {
    /// Every method of Tally v1, as `tally-worker` serves them.
    public static func allMethods(identity: WorkerIdentity) -> MethodRegistry {
        var registry = MethodRegistry()
        registry.registerSystemMethods(identity: identity)
        registry.registerHistoryMethods()
        registry.registerStreakMethods()
        registry.registerWorkoutMethods()
        return registry
    }

    /// Registers `history.*` on `tally.history`.
    public mutating func registerHistoryMethods() {
        register(HistoryMonths.self)
        register(HistoryMonth.self)
        register(HistoryDashboard.self)
    }

    /// Registers `streak.*` on `tally.streak`.
    public mutating func registerStreakMethods() {
        register(StreakSummary.self)
    }

    /// Registers `workout.*` on `tally.workout`.
    public mutating func registerWorkoutMethods() {
        register(WorkoutCalendar.self)
        register(WorkoutDay.self)
        register(WorkoutDetail.self)
    }
}
