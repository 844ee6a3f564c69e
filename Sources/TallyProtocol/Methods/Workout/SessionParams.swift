import TallyCore
import TallyJSONCoding

/// A stretching session on the wire: `{"id", "completed_at", "regions": ["hamstrings"], "duration_seconds"}`.
public struct StretchParams: Codable, Sendable, Hashable {
    public var id: String
    public var completedAt: Timestamp
    public var regions: [String]
    public var durationSeconds: Int

    public init(id: String, completedAt: Timestamp, regions: [String], durationSeconds: Int) {
        self.id = id
        self.completedAt = completedAt
        self.regions = regions
        self.durationSeconds = durationSeconds
    }

    enum CodingKeys: String, CodingKey {
        case id, regions
        case completedAt = "completed_at"
        case durationSeconds = "duration_seconds"
    }

    /// Checks every field and converts to the core session.
    public func session(
        at path: @autoclosure () -> FieldPath, limits: RequestLimits
    ) throws(TallyError)
        -> StretchSession
    {
        try WorkoutBounds.check(id, length: WorkoutBounds.idLength, path() + "id")
        try WorkoutBounds.check(count: regions.count, limits, path() + "regions", unit: "regions")
        for (index, region) in regions.enumerated() {
            try WorkoutBounds.check(region, length: WorkoutBounds.regionLength, (path() + "regions").index(index))
        }
        try WorkoutBounds.check(durationSeconds, WorkoutBounds.durationSeconds, path() + "duration_seconds")
        return StretchSession(
            id: id, completedAt: completedAt.instant, regions: regions, durationSeconds: durationSeconds)
    }

    /// Validates a whole list: the list limit, every session, and no two sessions with one id.
    public static func sessions(
        _ stretches: [StretchParams], at path: FieldPath, limits: RequestLimits
    ) throws(TallyError) -> [StretchSession] {
        try limits.check(stretches.count, at: path, unit: "stretches")
        var converted: [StretchSession] = []
        converted.reserveCapacity(stretches.count)
        for (index, stretch) in stretches.enumerated() {
            converted.append(try stretch.session(at: path.index(index), limits: limits))
        }
        try WorkoutBounds.checkUnique(stretches.lazy.map(\.id), at: path, noun: "stretch")
        return converted
    }
}

/// A meditation session on the wire: `{"id", "completed_at", "duration_seconds"}`.
public struct MeditationParams: Codable, Sendable, Hashable {
    public var id: String
    public var completedAt: Timestamp
    public var durationSeconds: Int

    public init(id: String, completedAt: Timestamp, durationSeconds: Int) {
        self.id = id
        self.completedAt = completedAt
        self.durationSeconds = durationSeconds
    }

    enum CodingKeys: String, CodingKey {
        case id
        case completedAt = "completed_at"
        case durationSeconds = "duration_seconds"
    }

    /// Checks every field and converts to the core session.
    public func session(at path: @autoclosure () -> FieldPath) throws(TallyError) -> MeditationSession {
        try WorkoutBounds.check(id, length: WorkoutBounds.idLength, path() + "id")
        try WorkoutBounds.check(durationSeconds, WorkoutBounds.durationSeconds, path() + "duration_seconds")
        return MeditationSession(id: id, completedAt: completedAt.instant, durationSeconds: durationSeconds)
    }

    /// Validates a whole list: the list limit, every session, and no two sessions with one id.
    public static func sessions(
        _ meditations: [MeditationParams], at path: FieldPath, limits: RequestLimits
    ) throws(TallyError) -> [MeditationSession] {
        try limits.check(meditations.count, at: path, unit: "meditations")
        var converted: [MeditationSession] = []
        converted.reserveCapacity(meditations.count)
        for (index, meditation) in meditations.enumerated() {
            converted.append(try meditation.session(at: path.index(index)))
        }
        try WorkoutBounds.checkUnique(meditations.lazy.map(\.id), at: path, noun: "meditation")
        return converted
    }
}

extension StretchParams: JSONFastDecodable {
    /// The plain session read without Codable's containers (two years of stretching are hundreds of sessions);
    /// anything else is `nil`, and the synthesized `init(from:)` decodes it with its usual errors. Member names as
    /// in `CodingKeys`.
    public init?(fastFrom object: borrowing JSONObjectReader) {
        var id: String?
        var completedAt: Timestamp?
        var regions: [String]?
        var duration: Int?
        for member in object.members {
            if member.is("completed_at") {
                completedAt = member.utf8 { try? Timestamp(utf8: $0) }
            } else if member.is("duration_seconds") {
                duration = member.int
            } else if member.is("regions") {
                regions = member.strings
            } else if member.is("id") {
                id = member.string
            }
        }
        guard let id, let completedAt, let regions, let duration else { return nil }
        self.init(id: id, completedAt: completedAt, regions: regions, durationSeconds: duration)
    }
}

extension MeditationParams: JSONFastDecodable {
    /// The plain session read without Codable's containers; anything else is `nil`, and the synthesized
    /// `init(from:)` decodes it with its usual errors. Member names as in `CodingKeys`.
    public init?(fastFrom object: borrowing JSONObjectReader) {
        var id: String?
        var completedAt: Timestamp?
        var duration: Int?
        for member in object.members {
            if member.is("completed_at") {
                completedAt = member.utf8 { try? Timestamp(utf8: $0) }
            } else if member.is("duration_seconds") {
                duration = member.int
            } else if member.is("id") {
                id = member.string
            }
        }
        guard let id, let completedAt, let duration else { return nil }
        self.init(id: id, completedAt: completedAt, durationSeconds: duration)
    }
}
