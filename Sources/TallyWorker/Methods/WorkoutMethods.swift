import TallyProtocol

extension MethodRegistry {
    /// Registers `workout.*` on `tally.workout`.
    public mutating func registerWorkoutMethods() {
        register(WorkoutCalendar.self) { params, context throws(TallyError) in
            try params.result(limits: context.limits)
        }
        register(WorkoutDay.self) { params, context throws(TallyError) in
            try params.result(limits: context.limits)
        }
        register(WorkoutDetail.self) { params, context throws(TallyError) in
            try params.result(limits: context.limits)
        }
    }
}
