import TallyCalendar

/// One day's step totals, keyed by local civil date.
///
/// A date without a record is *no data*; a record with 0 steps is *data, zero*. The two stay distinct in every
/// computation. Optional measures are `nil` when the source did not report them (not zero).
public struct DailyStepRecord: Sendable, Hashable {
    public var date: LocalDate
    /// Steps walked that day; ≥ 0.
    public var steps: Int
    /// Metres; ≥ 0.
    public var distanceMeters: Double?
    /// Active kilocalories; ≥ 0.
    public var calories: Double?
    /// Floors climbed; ≥ 0.
    public var flightsClimbed: Int?

    public init(
        date: LocalDate,
        steps: Int,
        distanceMeters: Double? = nil,
        calories: Double? = nil,
        flightsClimbed: Int? = nil
    ) {
        self.date = date
        self.steps = steps
        self.distanceMeters = distanceMeters
        self.calories = calories
        self.flightsClimbed = flightsClimbed
    }
}
