import TallyCalendar
import TallyCore
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

    enum CodingKeys: String, CodingKey {
        case date, steps
        case distanceMeters = "distance_m"
        case calories = "calories_kcal"
        case flightsClimbed = "flights_climbed"
    }

    /// Per-day upper bounds: far above any human day, low enough that sums over decades cannot overflow.
    public enum Bounds {
        public static let steps = 1_000_000
        public static let distanceMeters = 1_000_000.0
        public static let calories = 100_000.0
        public static let flightsClimbed = 10_000
    }

    /// Checks ranges and converts to the core record.
    /// - Parameter path: where the record sits; built only if something is wrong (this runs once per record).
    public func record(at path: @autoclosure () -> FieldPath) throws(TallyError) -> DailyStepRecord {
        try Self.checkMeasures(
            steps: steps, distanceMeters: distanceMeters, calories: calories, flightsClimbed: flightsClimbed,
            at: path())
        return DailyStepRecord(
            date: date, steps: steps, distanceMeters: distanceMeters, calories: calories, flightsClimbed: flightsClimbed
        )
    }

    /// Checks the four measures against `Bounds`, naming the member under `path` that is out of range. Daily
    /// records and the dashboard's timed samples share it: a sample cannot exceed a day.
    static func checkMeasures(
        steps: Int, distanceMeters: Double?, calories: Double?, flightsClimbed: Int?,
        at path: @autoclosure () -> FieldPath
    ) throws(TallyError) {
        try check(steps, 0...Bounds.steps, path() + "steps")
        try check(distanceMeters, 0...Bounds.distanceMeters, path() + "distance_m")
        try check(calories, 0...Bounds.calories, path() + "calories_kcal")
        try check(flightsClimbed, 0...Bounds.flightsClimbed, path() + "flights_climbed")
    }

    /// Checks an optional measure against its range (non-finite numbers cannot arrive: JSON has none).
    static func check<T: Comparable & Sendable>(
        _ value: T?, _ range: ClosedRange<T>, _ path: @autoclosure () -> FieldPath
    ) throws(TallyError) {
        guard let value, !range.contains(value) else { return }
        throw .invalidParams(
            path(), value < range.lowerBound ? "must be ≥ \(range.lowerBound)" : "must be ≤ \(range.upperBound)")
    }

    /// Validates a whole list: ranges, the list limit, and no two records for one date.
    public static func history(
        _ records: [DailyRecordParams], at path: FieldPath, limits: RequestLimits
    ) throws(TallyError) -> StepHistory {
        try limits.check(records.count, at: path, unit: "records")
        var converted: [DailyStepRecord] = []
        converted.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            converted.append(try record.record(at: path.index(index)))
        }
        do {
            return try StepHistory(converted)
        } catch {
            throw .invalidParams(
                path.index(error.second) + "date", "a second record for \(error.date) (records are never summed)",
                conflictsWith: path.index(error.first) + "date", value: error.date.description)
        }
    }
}

extension DailyRecordParams: JSONFastDecodable {
    /// The plain record read without Codable's containers (requests carry thousands); anything else is `nil`, and
    /// the synthesized `init(from:)` decodes it with its usual errors. Member names as in `CodingKeys`.
    public init?(fastFrom object: borrowing JSONObjectReader) {
        var date: LocalDate?
        var steps: Int?
        var distance: Double?? = .some(nil)
        var calories: Double?? = .some(nil)
        var flights: Int?? = .some(nil)
        for member in object.members {
            if member.is("date") {
                date = member.utf8 { try? LocalDate(utf8: $0) }
            } else if member.is("steps") {
                steps = member.int
            } else if member.is("distance_m") {
                distance = member.optionalDouble
            } else if member.is("calories_kcal") {
                calories = member.optionalDouble
            } else if member.is("flights_climbed") {
                flights = member.optionalInt
            }
        }
        guard let date, let steps, let distance, let calories, let flights else { return nil }
        self.init(date: date, steps: steps, distanceMeters: distance, calories: calories, flightsClimbed: flights)
    }
}
