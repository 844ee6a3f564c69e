import TallyProtocol

/// Sums of the step measures over days or hours. A measure no summed item reported stays `nil` rather than 0,
/// so "the source does not report calories" is not shown as "0 kcal".
package struct StepTotals: Sendable, Hashable {
    /// How many items (days with a record, or samples) were summed.
    package private(set) var count = 0
    package private(set) var steps = 0
    package private(set) var distanceMeters: Double?
    package private(set) var calories: Double?
    package private(set) var flightsClimbed: Int?

    package init() {}

    /// Adds one item's measures.
    package mutating func add(steps: Int, distanceMeters: Double?, calories: Double?, flightsClimbed: Int?) {
        count += 1
        self.steps += steps
        if let distanceMeters { self.distanceMeters = (self.distanceMeters ?? 0) + distanceMeters }
        if let calories { self.calories = (self.calories ?? 0) + calories }
        if let flightsClimbed { self.flightsClimbed = (self.flightsClimbed ?? 0) + flightsClimbed }
    }

    /// Adds a day's record.
    package mutating func add(_ record: DailyRecordParams) {
        add(
            steps: record.steps, distanceMeters: record.distanceMeters, calories: record.calories,
            flightsClimbed: record.flightsClimbed)
    }

    /// Adds everything another total holds.
    package mutating func add(_ other: StepTotals) {
        guard other.count > 0 else { return }
        self.steps += other.steps
        count += other.count
        if let distance = other.distanceMeters { distanceMeters = (distanceMeters ?? 0) + distance }
        if let calories = other.calories { self.calories = (self.calories ?? 0) + calories }
        if let flights = other.flightsClimbed { flightsClimbed = (flightsClimbed ?? 0) + flights }
    }
}
