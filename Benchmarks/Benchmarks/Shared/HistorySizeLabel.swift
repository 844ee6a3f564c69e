import TallyLoad

/// The history sizes the benchmarks use, named as benchmark names show them (`365d`, `3650d`).
package enum HistorySizeLabel: String, Sendable, CustomStringConvertible {
    case year = "365d"
    case decade = "3650d"

    package var historySize: HistorySize {
        switch self {
        case .year: .year
        case .decade: .decade
        }
    }

    package var description: String { rawValue }
}
