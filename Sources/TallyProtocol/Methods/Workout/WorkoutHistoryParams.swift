/// The keys `workout.day` and `workout.detail` share, flat in their params: the unit volumes and weights are
/// reported in (`unit`, default kg) and every workout the client has (`workouts`, default none), from which the
/// method picks its day or its workout and all of which count towards "Logged N times".
public struct WorkoutHistoryParams: Codable, Sendable, Hashable {
    public var unit: WeightUnit
    public var workouts: [WorkoutParams]

    public init(unit: WeightUnit = .kilogram, workouts: [WorkoutParams] = []) {
        self.unit = unit
        self.workouts = workouts
    }

    enum CodingKeys: String, CodingKey {
        case unit, workouts
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        unit = try container.decodeIfPresent(WeightUnit.self, forKey: .unit) ?? .kilogram
        workouts = try container.decodeIfPresent([WorkoutParams].self, forKey: .workouts) ?? []
    }
}
