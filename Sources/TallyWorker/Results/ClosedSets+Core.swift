import TallyCore
import TallyProtocol

// Each closed set of the contract and the core value it stands for, converted by exhaustive switches: a case added
// on either side stops the build here instead of changing frozen v1 on the wire. A set converts only the way a
// method needs it (a chart mode is asked for, and answered as asked). Where both sides use one
// name, each is written with its module.

extension TallyProtocol.DayState {
    init(_ state: TallyCore.DayState) {
        self =
            switch state {
            case .completed: .completed
            case .inProgress: .inProgress
            case .full: .full
            case .zero: .zero
            case .noData: .noData
            case .future: .future
            }
    }
}

extension TallyCore.DashboardMode {
    init(_ mode: TallyProtocol.DashboardMode) {
        self =
            switch mode {
            case .daily: .daily
            case .weekly: .weekly
            case .monthly: .monthly
            }
    }
}

extension TallyProtocol.WeightUnit {
    init(_ unit: TallyCore.WeightUnit) {
        self =
            switch unit {
            case .kilogram: .kilogram
            case .pound: .pound
            }
    }
}

extension TallyCore.WeightUnit {
    init(_ unit: TallyProtocol.WeightUnit) {
        self =
            switch unit {
            case .kilogram: .kilogram
            case .pound: .pound
            }
    }
}

extension ActivityType {
    init(_ kind: ActivityKind) {
        self =
            switch kind {
            case .workout: .workout
            case .stretch: .stretch
            case .meditation: .meditation
            }
    }
}

extension ActivityKind {
    init(_ type: ActivityType) {
        self =
            switch type {
            case .workout: .workout
            case .stretch: .stretch
            case .meditation: .meditation
            }
    }
}

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
