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

    enum CodingKeys: String, CodingKey, CaseIterable {
        case date, steps
        case distanceMeters = "distance_m"
        case calories = "calories_kcal"
        case flightsClimbed = "flights_climbed"
        case goal, progress, state, intensity
        case isToday = "is_today"
    }
}

extension HistoryDayResult: JSONFastEncodable {
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The members, written directly (a month grid and its rows are up to 74 of these).
    public func writeMembers(to object: inout JSONObjectWriter) throws {
        for key in Self.fastKeys.keys {
            switch key {
            case .date: object.string(key.stringValue, date.description)
            case .steps: object.int(key.stringValue, steps)
            case .distanceMeters: try object.double(key.stringValue, distanceMeters)
            case .calories: try object.double(key.stringValue, calories)
            case .flightsClimbed: object.int(key.stringValue, flightsClimbed)
            case .goal: object.int(key.stringValue, goal)
            case .progress: try object.double(key.stringValue, progress)
            case .state: object.string(key.stringValue, state.rawValue)
            case .intensity: try object.double(key.stringValue, intensity)
            case .isToday: object.bool(key.stringValue, isToday)
            }
        }
    }
}
