/// An activity type on the wire: `"workout"`, `"stretch"` or `"meditation"`. A closed set.
public enum ActivityType: String, Codable, Sendable, Hashable, CaseIterable, ClosedSetName {
    static let noun = "an activity type"

    case workout
    case stretch
    case meditation
}
