import TallyCore

/// An activity type on the wire: `"workout"`, `"stretch"` or `"meditation"`.
public struct ActivityTypeParam: Codable, Sendable, Hashable {
    public var kind: ActivityKind

    public init(_ kind: ActivityKind) { self.kind = kind }

    /// The wire name of each kind.
    public static func name(of kind: ActivityKind) -> String {
        switch kind {
        case .workout: "workout"
        case .stretch: "stretch"
        case .meditation: "meditation"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let kind = ActivityKind.allCases.first(where: { Self.name(of: $0) == text }) else {
            let shown = text.count > 32 ? String(text.prefix(32)) + "…" : text
            throw JSONDecodingError(
                refusing: "'\(shown)' is not an activity type: expected \"workout\", \"stretch\" or \"meditation\"",
                in: container)
        }
        self.kind = kind
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.name(of: kind))
    }
}
