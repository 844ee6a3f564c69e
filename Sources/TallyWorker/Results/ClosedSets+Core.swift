import TallyCore
import TallyProtocol

// The milestone tiers of the core (lengths that earn them) named as the contract names them, by an exhaustive
// switch: a tier added to the core stops the build here instead of changing frozen v1 on the wire. The other closed
// sets (day states, units, activity types, chart modes) are the contract's own, which the core speaks.

extension StreakSummary.TierName {
    init(_ tier: MilestoneTier) {
        self =
            switch tier {
            case .bronze: .bronze
            case .silver: .silver
            case .gold: .gold
            case .platinum: .platinum
            case .emerald: .emerald
            case .ruby: .ruby
            case .diamond: .diamond
            }
    }
}
