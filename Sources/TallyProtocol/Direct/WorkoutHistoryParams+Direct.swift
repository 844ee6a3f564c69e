import TallyCalendar
import TallyJSONCoding

extension WorkoutHistoryParams {
    /// `unit` and `workouts` as a direct read of flat params meets them, then the history they make with
    /// `init(from:)`'s defaults (kilograms, no workouts).
    public struct DirectMembers {
        var unit: WeightUnit?
        var workouts: [WorkoutParams]?

        public init() {}

        /// Reads the value of `key` when it is `unit` or `workouts`: `true` once read, `false` when it cannot be
        /// (or was read before), `nil` for another key.
        public mutating func read(_ key: JSONKeyBytes, _ cursor: inout JSONCursor) -> Bool? {
            if key.is("workouts") {
                guard workouts == nil, let list = cursor.array(of: WorkoutParams.self) else { return false }
                workouts = list
            } else if key.is("unit") {
                guard unit == nil, let symbol = cursor.text(WeightUnit.init(utf8Symbol:)) else { return false }
                unit = symbol
            } else {
                return nil
            }
            return true
        }

        public var value: WorkoutHistoryParams {
            WorkoutHistoryParams(unit: unit ?? .kilogram, workouts: workouts ?? [])
        }
    }
}
