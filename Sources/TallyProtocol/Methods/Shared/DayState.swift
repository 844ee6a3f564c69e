/// How a day stands against its goal, one set for every day Tally shows (a calendar cell, a list row, a chart bar,
/// a heatmap cell, today's card), so that one client `switch` draws them all and no day carries a flag that could
/// disagree with its state. A closed set: v1 never adds a state.
public enum DayState: String, Codable, Sendable, Hashable, CaseIterable {
    /// Steps ≥ the day's goal with goal tracking on: the "goal completed" colour.
    case completed
    /// 0 < steps < the day's goal: the "in progress" colour (tracking on or off).
    case inProgress = "in_progress"
    /// Steps ≥ the day's goal with goal tracking off: the "in progress" colour at full opacity, never "completed".
    case full
    /// A record with 0 steps: grey like no data, but the day was tracked.
    case zero
    /// No record for the date.
    case noData = "no_data"
    /// After today: drawn secondary and not selectable; records dated then are ignored.
    case future
}
