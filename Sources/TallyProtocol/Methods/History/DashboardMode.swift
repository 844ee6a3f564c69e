/// The home dashboard's chart: the hours of the selected day (`daily`), the 7 days of its week (`weekly`, by
/// `week_starts_on`) or the days of its month (`monthly`). Weekly and monthly need Pro. A closed set.
public enum DashboardMode: String, Codable, Sendable, Hashable, CaseIterable {
    case daily
    case weekly
    case monthly

    public init(from decoder: any Decoder) throws {
        self = try ClosedSetName.decode(from: decoder, what: "a chart mode")
    }
}
