/// The home dashboard's chart granularity (the app's `calendarViewMode`).
public enum DashboardMode: String, Sendable, Hashable, CaseIterable {
    /// The hours of the selected day.
    case daily
    /// The 7 days of the week holding the selected day (by `week_starts_on`). Pro.
    case weekly
    /// Every day of the selected day's month. Pro.
    case monthly

    /// Weekly and monthly charts are behind the Pro subscription; daily is free.
    public var needsPro: Bool { self != .daily }
}
