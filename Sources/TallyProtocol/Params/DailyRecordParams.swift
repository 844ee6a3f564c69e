import TallyCalendar

import TallyJSONCoding

/// One day's totals on the wire:
/// `{"date": "2026-03-08", "steps": 9500, "distance_m": 7100.5, "calories_kcal": 380, "flights_climbed": 4}`.
/// Only `date` and `steps` are required; a missing measure is reported as null, not zero.
public struct DailyRecordParams: Codable, Sendable, Hashable {
    public var date: LocalDate
    public var steps: Int
    public var distanceMeters: Double?
    public var calories: Double?
    public var flightsClimbed: Int?

    public init(
        date: LocalDate, steps: Int, distanceMeters: Double? = nil, calories: Double? = nil, flightsClimbed: Int? = nil
    ) {
        self.date = date
        self.steps = steps
        self.distanceMeters = distanceMeters
        self.calories = calories
        self.flightsClimbed = flightsClimbed
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case date, steps
        case distanceMeters = "distance_m"
        case calories = "calories_kcal"
        case flightsClimbed = "flights_climbed"
    }
}

extension DailyRecordParams: JSONFastDecodable {
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The plain record read without Codable's containers (requests carry thousands); anything else is `nil`, and
    /// the synthesized `init(from:)` decodes it with its usual errors.
    public init?(fastFrom object: borrowing JSONObjectReader) {
        let keys = Self.fastKeys
        var date: LocalDate?
        var steps: Int?
        var distance: Double?? = .some(nil)
        var calories: Double?? = .some(nil)
        var flights: Int?? = .some(nil)
        for member in object.members {
            switch member.key(in: keys) {
            case .date: date = member.utf8 { try? LocalDate(utf8: $0) }
            case .steps: steps = member.int
            case .distanceMeters: distance = member.optionalDouble
            case .calories: calories = member.optionalDouble
            case .flightsClimbed: flights = member.optionalInt
            case nil: continue
            }
        }
        guard let date, let steps, let distance, let calories, let flights else { return nil }
        self.init(date: date, steps: steps, distanceMeters: distance, calories: calories, flightsClimbed: flights)
    }
}
