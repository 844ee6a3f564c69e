/// How the history calendar draws a day. The seed's colour rules, plus the three facts the rules keep apart:
/// no record (*no data*), a record of 0 steps (*zero*) and a date after today (*future*).
public enum HistoryDayState: String, Sendable, Hashable, CaseIterable {
    /// Progress ≥ 1 with goal tracking on: the "goal completed" colour.
    case completed
    /// 0 < progress < 1: the "in progress" colour at `progress` opacity (tracking on or off).
    case inProgress = "in_progress"
    /// Progress ≥ 1 with goal tracking off: the "in progress" colour at full opacity, never "completed".
    case full
    /// A record with 0 steps: grey like no data, but the day was tracked.
    case zero
    /// No record for the date.
    case noData = "no_data"
    /// After today: drawn secondary and not selectable; records dated then are ignored.
    case future
}
