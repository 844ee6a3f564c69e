/// An activity type on the wire: `"workout"`, `"stretch"` or `"meditation"`. A closed set.
public enum ActivityType: String, Codable, Sendable, Hashable, CaseIterable {
    case workout
    case stretch
    case meditation

    public init(from decoder: any Decoder) throws {
        self = try ClosedSetName.decode(from: decoder, what: "an activity type")
    }
}
