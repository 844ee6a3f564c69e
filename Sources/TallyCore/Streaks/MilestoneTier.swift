/// The seven streak trophies, in order. The raw value is the streak length in days that earns the tier.
package enum MilestoneTier: Int, CaseIterable, Sendable, Hashable, Comparable {
    case bronze = 7
    case silver = 14
    case gold = 30
    case platinum = 60
    case emerald = 100
    case ruby = 200
    case diamond = 365

    /// Days of current streak that earn the tier.
    package var days: Int { rawValue }

    /// The trophy's name as the app shows it ("Bronze").
    package var name: String {
        switch self {
        case .bronze: "Bronze"
        case .silver: "Silver"
        case .gold: "Gold"
        case .platinum: "Platinum"
        case .emerald: "Emerald"
        case .ruby: "Ruby"
        case .diamond: "Diamond"
        }
    }

    package static func < (lhs: MilestoneTier, rhs: MilestoneTier) -> Bool { lhs.rawValue < rhs.rawValue }
}
