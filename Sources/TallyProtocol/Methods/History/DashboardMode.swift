/// The home dashboard's chart: the hours of the selected day (`daily`), the 7 days of its week (`weekly`, by
/// `week_starts_on`) or the days of its month (`monthly`). Weekly and monthly need Pro. A closed set.
public enum DashboardMode: String, Codable, Sendable, Hashable, CaseIterable, ClosedSetName {
    static let noun = "a chart mode"

    /// The hours of the selected day (`hours`), from the samples: the default, and the one mode free users have.
    case daily
    /// The 7 days of the week that holds the selected day, by `week_starts_on` (`days`); needs Pro.
    case weekly
    /// Every day of the selected day's month (`days`); needs Pro.
    case monthly
}
