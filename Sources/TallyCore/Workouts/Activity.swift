import Foundation
import TallyProtocol

/// Any activity the calendar shows: a workout, a stretching session or a meditation, as the request gave it.
package enum Activity: Sendable, Hashable {
    case workout(WorkoutParams)
    case stretch(StretchParams)
    case meditation(MeditationParams)

    package var type: ActivityType {
        switch self {
        case .workout: .workout
        case .stretch: .stretch
        case .meditation: .meditation
        }
    }

    /// The id the client gave it (unique within its type).
    package var id: String {
        switch self {
        case .workout(let workout): workout.id
        case .stretch(let stretch): stretch.id
        case .meditation(let meditation): meditation.id
        }
    }

    package var completedAt: Instant {
        switch self {
        case .workout(let workout): workout.completedAt.instant
        case .stretch(let stretch): stretch.completedAt.instant
        case .meditation(let meditation): meditation.completedAt.instant
        }
    }
}

extension ActivityType {
    /// The order that breaks ties between activities completed at the same instant: workout, stretch, meditation.
    var tieBreakRank: Int {
        switch self {
        case .workout: 0
        case .stretch: 1
        case .meditation: 2
        }
    }
}
