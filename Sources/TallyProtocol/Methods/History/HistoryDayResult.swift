import TallyCalendar
import TallyJSONCoding

/// A day on the wire: a calendar cell, a list row or a bar of the weekly and monthly charts.
/// Measures are null for no data and future days; `progress` and `intensity` have 4 decimals. Whether the day is
/// future is its `state` (`future`), not a flag beside it that could disagree.
public struct HistoryDayResult: Codable, Sendable, Hashable {
    public var date: LocalDate
    public var steps: Int?
    public var distanceMeters: Double?
    public var calories: Double?
    public var flightsClimbed: Int?
    /// The goal in force that day.
    public var goal: Int
    public var progress: Double?
    public var state: DayState
    /// The cell colour's opacity: progress while in progress, 1 when completed or full, null otherwise.
    public var intensity: Double?
    public var isToday: Bool

    public init(
        date: LocalDate, steps: Int?, distanceMeters: Double?, calories: Double?, flightsClimbed: Int?, goal: Int,
        progress: Double?, state: DayState, intensity: Double?, isToday: Bool
    ) {
        self.date = date
        self.steps = steps
        self.distanceMeters = distanceMeters
        self.calories = calories
        self.flightsClimbed = flightsClimbed
        self.goal = goal
        self.progress = progress
        self.state = state
        self.intensity = intensity
        self.isToday = isToday
    }

    enum CodingKeys: String, CodingKey {
        case date, steps
        case distanceMeters = "distance_m"
        case calories = "calories_kcal"
        case flightsClimbed = "flights_climbed"
        case goal, progress, state, intensity
        case isToday = "is_today"
    }
}

extension HistoryDayResult: JSONFastEncodable {
    /// The same members as `encode(to:)`, written directly (a month grid and its rows are up to 74 of these).
    public func writeMembers(to object: inout JSONObjectWriter) throws {
        object.string(CodingKeys.date.stringValue, date.description)
        object.int(CodingKeys.steps.stringValue, steps)
        try object.double(CodingKeys.distanceMeters.stringValue, distanceMeters)
        try object.double(CodingKeys.calories.stringValue, calories)
        object.int(CodingKeys.flightsClimbed.stringValue, flightsClimbed)
        object.int(CodingKeys.goal.stringValue, goal)
        try object.double(CodingKeys.progress.stringValue, progress)
        object.string(CodingKeys.state.stringValue, state.rawValue)
        try object.double(CodingKeys.intensity.stringValue, intensity)
        object.bool(CodingKeys.isToday.stringValue, isToday)
    }
}
