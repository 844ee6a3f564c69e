/// The home dashboard's chart: the hours of the selected day (`daily`), the 7 days of its week (`weekly`, by
/// `week_starts_on`) or the days of its month (`monthly`). Weekly and monthly need Pro. A closed set.
public enum DashboardMode: String, Codable, Sendable, Hashable, CaseIterable, ClosedSetName {
    static let noun = "a chart mode"

    case daily
    case weekly
    case monthly
}
