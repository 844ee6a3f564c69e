/// Sums on the wire. `count` counts the days with a record (or, for the daily chart, the samples) summed; a measure
/// no summed item reported is null, not 0.
public struct StepTotalsResult: Codable, Sendable, Hashable {
    public var steps: Int
    public var distanceMeters: Double?
    public var calories: Double?
    public var flightsClimbed: Int?
    /// Records summed (days) or samples summed (hours).
    public var count: Int

    public init(steps: Int, distanceMeters: Double?, calories: Double?, flightsClimbed: Int?, count: Int) {
        self.steps = steps
        self.distanceMeters = distanceMeters
        self.calories = calories
        self.flightsClimbed = flightsClimbed
        self.count = count
    }

    enum CodingKeys: String, CodingKey {
        case steps
        case distanceMeters = "distance_m"
        case calories = "calories_kcal"
        case flightsClimbed = "flights_climbed"
        case count
    }
}
