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
}
