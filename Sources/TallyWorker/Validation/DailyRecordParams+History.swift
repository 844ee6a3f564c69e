import TallyCore
import TallyJSONCoding
import TallyProtocol

extension DailyRecordParams {
    /// Per-day upper bounds: far above any human day, low enough that sums over decades cannot overflow.
    enum Bounds {
        static let steps = 1_000_000
        static let distanceMeters = 1_000_000.0
        static let calories = 100_000.0
        static let flightsClimbed = 10_000
    }

    /// Checks the ranges.
    /// - Parameter path: where the record sits; built only if something is wrong (this runs once per record).
    func check(at path: @autoclosure () -> FieldPath) throws(TallyError) {
        try Self.checkMeasures(
            steps: steps, distanceMeters: distanceMeters, calories: calories, flightsClimbed: flightsClimbed,
            at: path())
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
    package static func history(
        _ records: [DailyRecordParams], at path: FieldPath, limits: RequestLimits
    ) throws(TallyError) -> StepHistory {
        try limits.check(records.count, at: path, unit: "records")
        // By index: iterating the records would copy each one out.
        for index in records.indices {
            try records[index].check(at: path.index(index))
        }
        do {
            return try StepHistory(records)
        } catch {
            throw .invalidParams(
                path.index(error.second) + "date", "a second record for \(error.date) (records are never summed)",
                conflictsWith: path.index(error.first) + "date", value: error.date.description)
        }
    }
}
