import TallyProtocol

/// The volume of one exercise, reported in one unit.
///
/// Volume is Σ reps × weight over the sets. Sets logged in different units are summed per unit and each sum is
/// converted once, so a mixed kg/lb exercise is exactly the sum of its sets converted one by one, with the
/// least floating-point noise. Nothing is rounded here: rounding is for the wire.
package struct ExerciseVolume: Sendable, Hashable {
    package let name: String
    /// Σ reps × weight in the reporting unit; 0 when every set is bodyweight.
    package let volume: Double
    /// Distinct weights used, ascending, in the reporting unit; 0 stands for bodyweight.
    package let weights: [Double]
    /// Sets logged, bodyweight sets included.
    package let setCount: Int
    /// Sets with weight 0.
    package let bodyweightSetCount: Int

    /// Computes the volume of `exercise` in `unit`.
    package init(_ exercise: ExerciseParams, in unit: WeightUnit) {
        var kilograms = 0.0
        var pounds = 0.0
        var bodyweight = 0
        var weights: [Double] = []
        weights.reserveCapacity(exercise.sets.count)
        for set in exercise.sets {
            let load = Double(set.reps) * set.weight
            switch set.unit {
            case .kilogram: kilograms += load
            case .pound: pounds += load
            }
            if set.isBodyweight { bodyweight += 1 }
            // A bodyweight set's weight may have come as -0: it is shown as 0.
            weights.append(set.isBodyweight ? 0 : unit.converting(set.weight, from: set.unit))
        }
        weights.sort()
        var distinct: [Double] = []
        for weight in weights where distinct.last != weight { distinct.append(weight) }
        self.name = exercise.name
        self.volume = unit.converting(kilograms, from: .kilogram) + unit.converting(pounds, from: .pound)
        self.weights = distinct
        self.setCount = exercise.sets.count
        self.bodyweightSetCount = bodyweight
    }
}

/// The volume of a workout, per exercise and in total, reported in one unit.
package struct WorkoutVolume: Sendable, Hashable {
    package let unit: WeightUnit
    /// One entry per exercise, in the order logged.
    package let exercises: [ExerciseVolume]
    /// The sum of the exercises' volumes.
    package let total: Double

    /// Computes the volumes of `workout` in `unit`.
    package init(_ workout: WorkoutParams, in unit: WeightUnit) {
        let exercises = workout.exercises.map { ExerciseVolume($0, in: unit) }
        self.unit = unit
        self.exercises = exercises
        self.total = exercises.reduce(0) { $0 + $1.volume }
    }

    /// Sets logged over all exercises.
    package var setCount: Int { exercises.reduce(0) { $0 + $1.setCount } }

    /// Bodyweight sets over all exercises.
    package var bodyweightSetCount: Int { exercises.reduce(0) { $0 + $1.bodyweightSetCount } }
}
