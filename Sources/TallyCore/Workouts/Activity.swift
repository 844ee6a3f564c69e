import Foundation

/// The kinds of activity on the activity calendar, in the order that breaks ties between activities completed
/// at the same instant.
public enum ActivityKind: Int, CaseIterable, Sendable, Hashable, Comparable {
    case workout
    case stretch
    case meditation

    public static func < (lhs: ActivityKind, rhs: ActivityKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A completed stretching session.
public struct StretchSession: Sendable, Hashable {
    public var id: String
    public var completedAt: Date
    /// Body regions stretched, in the order logged ("hamstrings", "hips").
    public var regions: [String]
    public var durationSeconds: Int

    public init(id: String, completedAt: Date, regions: [String], durationSeconds: Int) {
        self.id = id
        self.completedAt = completedAt
        self.regions = regions
        self.durationSeconds = durationSeconds
    }
}

/// A completed meditation session.
public struct MeditationSession: Sendable, Hashable {
    public var id: String
    public var completedAt: Date
    public var durationSeconds: Int

    public init(id: String, completedAt: Date, durationSeconds: Int) {
        self.id = id
        self.completedAt = completedAt
        self.durationSeconds = durationSeconds
    }
}

/// Any activity the calendar shows.
public enum Activity: Sendable, Hashable {
    case workout(PerformedWorkout)
    case stretch(StretchSession)
    case meditation(MeditationSession)

    public var kind: ActivityKind {
        switch self {
        case .workout: .workout
        case .stretch: .stretch
        case .meditation: .meditation
        }
    }

    /// The id the client gave it (unique within its kind).
    public var id: String {
        switch self {
        case .workout(let workout): workout.id
        case .stretch(let stretch): stretch.id
        case .meditation(let meditation): meditation.id
        }
    }

    public var completedAt: Date {
        switch self {
        case .workout(let workout): workout.completedAt
        case .stretch(let stretch): stretch.completedAt
        case .meditation(let meditation): meditation.completedAt
        }
    }
}
