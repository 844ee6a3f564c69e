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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, regions
        case completedAt = "completed_at"
        case durationSeconds = "duration_seconds"
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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case completedAt = "completed_at"
        case durationSeconds = "duration_seconds"
    }
}

extension StretchParams: JSONFastDecodable {
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The plain session read without Codable's containers (two years of stretching are hundreds of sessions);
    /// anything else is `nil`, and the synthesized `init(from:)` decodes it with its usual errors.
    public init?(fastFrom object: borrowing JSONObjectReader) {
        let keys = Self.fastKeys
        var id: String?
        var regions: [String]?
        var completedAt: Timestamp?
        var duration: Int?
        for member in object.members {
            switch member.key(in: keys) {
            case .id: id = member.string
            case .regions: regions = member.strings
            case .completedAt: completedAt = member.utf8 { try? Timestamp(utf8: $0) }
            case .durationSeconds: duration = member.int
            case nil: continue
            }
        }
        guard let id, let completedAt, let regions, let duration else { return nil }
        self.init(id: id, completedAt: completedAt, regions: regions, durationSeconds: duration)
    }
}

extension MeditationParams: JSONFastDecodable {
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The plain session read without Codable's containers; anything else is `nil`, and the synthesized
    /// `init(from:)` decodes it with its usual errors.
    public init?(fastFrom object: borrowing JSONObjectReader) {
        let keys = Self.fastKeys
        var id: String?
        var completedAt: Timestamp?
        var duration: Int?
        for member in object.members {
            switch member.key(in: keys) {
            case .id: id = member.string
            case .completedAt: completedAt = member.utf8 { try? Timestamp(utf8: $0) }
            case .durationSeconds: duration = member.int
            case nil: continue
            }
        }
        guard let id, let completedAt, let duration else { return nil }
        self.init(id: id, completedAt: completedAt, durationSeconds: duration)
    }
}
