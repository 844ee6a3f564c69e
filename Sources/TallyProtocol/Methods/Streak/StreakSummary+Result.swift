import TallyCalendar

extension StreakSummary {
    /// Whether streaks are offered.
    public enum Status: String, Codable, Sendable, Hashable {
        /// Goal tracking is on: every section is present.
        case active
        /// Goal tracking (`goal_tracking_enabled`) is off: streaks are not offered and only `status` and `as_of`
        /// are present. Not a streak of 0, which would read as "broken".
        case goalTrackingOff = "goal_tracking_off"
    }

}
