/// A timed sample on the wire, for the dashboard's daily chart:
/// `{"start": "2026-03-08T07:00:00-05:00", "steps": 812, "distance_m": 590.2, "calories_kcal": 31, "flights_climbed": 1}`.
/// `start` is an RFC 3339 instant with its offset; the sample counts in the local hour it starts in.
public struct StepSampleParams: Codable, Sendable, Hashable {
    public var start: Timestamp
    public var steps: Int
    public var distanceMeters: Double?
    public var calories: Double?
    public var flightsClimbed: Int?

    public init(
        start: Timestamp, steps: Int, distanceMeters: Double? = nil, calories: Double? = nil, flightsClimbed: Int? = nil
    ) {
        self.start = start
        self.steps = steps
        self.distanceMeters = distanceMeters
        self.calories = calories
        self.flightsClimbed = flightsClimbed
    }

    enum CodingKeys: String, CodingKey {
        case start, steps
        case distanceMeters = "distance_m"
        case calories = "calories_kcal"
        case flightsClimbed = "flights_climbed"
    }
}
