import TallyCalendar
import TallyCore
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

    public init(_ day: HistoryDay) {
        date = day.date
        steps = day.record?.steps
        distanceMeters = day.record?.distanceMeters
        calories = day.record?.calories
        flightsClimbed = day.record?.flightsClimbed
        goal = day.goal
        progress = day.progress.map { TallyJSON.rounded($0) }
        state = day.state
        intensity = day.intensity.map { TallyJSON.rounded($0) }
        isToday = day.isToday
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

/// Sums on the wire. `count` counts the days with a record (or, for the daily chart, the samples) summed; a measure
/// no summed item reported is null, not 0.
public struct StepTotalsResult: Codable, Sendable, Hashable {
    public var steps: Int
    public var distanceMeters: Double?
    public var calories: Double?
    public var flightsClimbed: Int?
    /// Records summed (days) or samples summed (hours).
    public var count: Int

    public init(_ totals: StepTotals) {
        steps = totals.steps
        distanceMeters = totals.distanceMeters.map { TallyJSON.rounded($0, places: 2) }
        calories = totals.calories.map { TallyJSON.rounded($0, places: 2) }
        flightsClimbed = totals.flightsClimbed
        count = totals.count
    }

    enum CodingKeys: String, CodingKey {
        case steps
        case distanceMeters = "distance_m"
        case calories = "calories_kcal"
        case flightsClimbed = "flights_climbed"
        case count
    }
}
