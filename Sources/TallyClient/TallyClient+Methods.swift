import TallyProtocol

/// One typed call per v1 method: the method's name, service, params and result types come from its
/// `TallyMethod` description, so these are `call(_:_:)` with the method spelled out for discoverability.
extension TallyClient {
    /// `history.months`: the months the history calendar offers.
    public func historyMonths(
        _ params: HistoryMonths.Params, timeout: Duration? = nil
    ) async throws(TallyClientError) -> HistoryMonths.Result {
        try await call(HistoryMonths.self, params, timeout: timeout)
    }

    /// `history.month`: one month's calendar grid and list rows.
    public func historyMonth(
        _ params: HistoryMonth.Params, timeout: Duration? = nil
    ) async throws(TallyClientError) -> HistoryMonth.Result {
        try await call(HistoryMonth.self, params, timeout: timeout)
    }

    /// `history.dashboard`: the home screen's card, chart and review prompt for a selected day.
    public func historyDashboard(
        _ params: HistoryDashboard.Params, timeout: Duration? = nil
    ) async throws(TallyClientError) -> HistoryDashboard.Result {
        try await call(HistoryDashboard.self, params, timeout: timeout)
    }

    /// `streak.summary`: current and best streak, today, milestones and the 30-day heatmap.
    public func streakSummary(
        _ params: StreakSummary.Params, timeout: Duration? = nil
    ) async throws(TallyClientError) -> StreakSummary.Result {
        try await call(StreakSummary.self, params, timeout: timeout)
    }

    /// `workout.calendar`: one month of the activity calendar.
    public func workoutCalendar(
        _ params: WorkoutCalendar.Params, timeout: Duration? = nil
    ) async throws(TallyClientError) -> WorkoutCalendar.Result {
        try await call(WorkoutCalendar.self, params, timeout: timeout)
    }

    /// `workout.day`: the workouts of one date with volumes, plan weeks and template usage.
    public func workoutDay(
        _ params: WorkoutDay.Params, timeout: Duration? = nil
    ) async throws(TallyClientError) -> WorkoutDay.Result {
        try await call(WorkoutDay.self, params, timeout: timeout)
    }

    /// `workout.detail`: one workout by id, with its local date, volumes, plan week and template usage.
    public func workoutDetail(
        _ params: WorkoutDetail.Params, timeout: Duration? = nil
    ) async throws(TallyClientError) -> WorkoutDetail.Result {
        try await call(WorkoutDetail.self, params, timeout: timeout)
    }
}
