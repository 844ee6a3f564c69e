/// How much history a generated request carries: the sizes the load tool and the benchmarks use.
package enum HistorySize: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case month = "30d"
    case year = "1y"
    case twoYears = "2y"
    case threeYears = "3y"
    case decade = "10y"

    /// Days of daily records.
    package var days: Int {
        switch self {
        case .month: 30
        case .year: 365
        case .twoYears: 730
        case .threeYears: 1095
        case .decade: 3650
        }
    }

    /// Goal changes over the period (a decade gets the 50 the streak benchmark asks for).
    package var goalChanges: Int {
        switch self {
        case .month: 1
        case .year: 5
        case .twoYears: 10
        case .threeYears: 15
        case .decade: 50
        }
    }

    package var description: String { rawValue }
}
