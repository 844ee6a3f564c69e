import TallyLoad

/// The history sizes the benchmarks use, named as benchmark names show them (`365d`, `3650d`).
public enum HistorySizeLabel: String, Sendable, CustomStringConvertible {
    case year = "365d"
    case decade = "3650d"

    public var historySize: HistorySize {
        switch self {
        case .year: .year
        case .decade: .decade
        }
    }

    public var description: String { rawValue }
}
