import Foundation

/// A timed step sample (HealthKit's quantity samples): measures counted from an instant on. The dashboard's daily
/// chart buckets samples into the local hours of the selected day by their start.
public struct StepSample: Sendable, Hashable {
    public var start: Date
    public var steps: Int
    public var distanceMeters: Double?
    public var calories: Double?
    public var flightsClimbed: Int?

    public init(
        start: Date, steps: Int, distanceMeters: Double? = nil, calories: Double? = nil, flightsClimbed: Int? = nil
    ) {
        self.start = start
        self.steps = steps
        self.distanceMeters = distanceMeters
        self.calories = calories
        self.flightsClimbed = flightsClimbed
    }
}
