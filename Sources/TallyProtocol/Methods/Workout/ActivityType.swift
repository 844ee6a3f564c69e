/// An activity type on the wire: `"workout"`, `"stretch"` or `"meditation"`. A closed set.
public enum ActivityType: String, Codable, Sendable, Hashable, CaseIterable, ClosedSetName {
    static let noun = "an activity type"

    /// A workout, from the params' `workouts`: its card shows its name, day name, exercise count and set count.
    case workout
    /// A stretching session, from `stretches`: its card shows the regions stretched and its length.
    case stretch
    /// A meditation session, from `meditations`: its card shows its length.
    case meditation
}
