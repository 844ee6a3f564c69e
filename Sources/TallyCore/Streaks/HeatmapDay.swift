/// How a heatmap cell is drawn. No data and zero are both grey in the app but are different facts, so they stay
/// different states.
public enum HeatmapDayState: Sendable, Hashable {
    /// No record for the day.
    case noData
    /// A record with 0 steps.
    case zero
    /// Steps > 0 but below the day's goal (the blue ramp).
    case partial
    /// Steps ≥ the day's goal (the green ramp).
    case goalReached
}

/// One cell of the 30-day heatmap (the app's `HeatmapDayRecord`).
public struct HeatmapDay: Sendable, Hashable {
    public let date: LocalDate
    /// The day's steps, or `nil` for no data.
    public let steps: Int?
    /// The goal active that day.
    public let goal: Int
    public let state: HeatmapDayState
    /// Whether the day belongs to the current streak as the badge shows it.
    public let inCurrentStreak: Bool
    public let isToday: Bool
    /// `0.15 + steps / maxSteps × 0.85` for days with steps > 0; `nil` for zero and no-data days, which are
    /// grey and have no colour ramp (their `state` says which grey).
    public let intensity: Double?

    public init(
        date: LocalDate, steps: Int?, goal: Int, state: HeatmapDayState, inCurrentStreak: Bool, isToday: Bool,
        intensity: Double?
    ) {
        self.date = date
        self.steps = steps
        self.goal = goal
        self.state = state
        self.inCurrentStreak = inCurrentStreak
        self.isToday = isToday
        self.intensity = intensity
    }

    /// Whether the day's steps met its goal.
    public var goalReached: Bool { state == .goalReached }
}
