import TallyCore

/// One set on the wire: `{"reps": 8, "weight": 60, "unit": "kg"}`; weight 0 is a bodyweight set.
public struct SetParams: Codable, Sendable, Hashable {
    public var reps: Int
    public var weight: Double
    public var unit: WeightUnitParam

    public init(reps: Int, weight: Double, unit: WeightUnit) {
        self.reps = reps
        self.weight = weight
        self.unit = WeightUnitParam(unit)
    }

    enum CodingKeys: String, CodingKey {
        case reps, weight, unit
    }

    /// Checks ranges and converts to the core set.
    public func set(at path: FieldPath) throws(TallyError) -> WorkoutSet {
        try WorkoutBounds.check(reps, WorkoutBounds.reps, path + "reps")
        try WorkoutBounds.check(weight, WorkoutBounds.weight, path + "weight")
        // `-0` passes the range check; store +0 so that no "-0" reaches a response.
        return WorkoutSet(reps: reps, weight: weight == 0 ? 0 : weight, unit: unit.unit)
    }
}

/// One exercise on the wire: `{"name": "Bench Press", "sets": [...]}`.
public struct ExerciseParams: Codable, Sendable, Hashable {
    public var name: String
    public var sets: [SetParams]

    public init(name: String, sets: [SetParams]) {
        self.name = name
        self.sets = sets
    }

    enum CodingKeys: String, CodingKey {
        case name, sets
    }

    /// Checks the name, the list limit and every set, and converts to the core exercise.
    public func exercise(at path: FieldPath, limits: RequestLimits) throws(TallyError) -> PerformedExercise {
        try WorkoutBounds.check(name, length: WorkoutBounds.nameLength, path + "name")
        let setsPath = path + "sets"
        try limits.check(sets.count, at: setsPath, unit: "sets")
        var converted: [WorkoutSet] = []
        converted.reserveCapacity(sets.count)
        for (index, set) in sets.enumerated() {
            converted.append(try set.set(at: setsPath.index(index)))
        }
        return PerformedExercise(name: name, sets: converted)
    }
}
