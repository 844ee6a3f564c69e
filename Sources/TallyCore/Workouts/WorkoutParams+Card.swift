import TallyProtocol

extension SetParams {
    /// A bodyweight set (weight 0) counts as a set but adds no volume.
    package var isBodyweight: Bool { weight == 0 }
}

extension WorkoutParams {
    /// What a calendar card calls the workout: the plan day's name, or the workout's own name without one.
    package var cardName: String { dayName ?? name }

    /// Sets logged over all exercises, bodyweight sets included.
    package var setCount: Int { exercises.reduce(0) { $0 + $1.sets.count } }
}
