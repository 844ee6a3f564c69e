import Foundation

/// One logged set: `reps` repetitions of `weight` in `unit`. Weight 0 is a bodyweight set.
public struct WorkoutSet: Sendable, Hashable {
    /// Repetitions, ≥ 0.
    public var reps: Int
    /// Load in `unit`, ≥ 0; 0 for bodyweight.
    public var weight: Double
    public var unit: WeightUnit

    public init(reps: Int, weight: Double, unit: WeightUnit) {
        self.reps = reps
        self.weight = weight
        self.unit = unit
    }

    /// A bodyweight set counts as a set but adds no volume.
    public var isBodyweight: Bool { weight == 0 }
}

/// One exercise of a workout, with its sets in the order they were logged.
public struct PerformedExercise: Sendable, Hashable {
    public var name: String
    public var sets: [WorkoutSet]

    public init(name: String, sets: [WorkoutSet]) {
        self.name = name
        self.sets = sets
    }
}

/// A completed workout, as the history stores it (the app's `PerformedWorkout`).
public struct PerformedWorkout: Sendable, Hashable {
    /// Unique among the workouts of one request.
    public var id: String
    public var name: String
    /// When it was finished; its local date decides the calendar day.
    public var completedAt: Date
    /// The template it was started from, if any (for "Logged N times").
    public var templateID: String?
    /// The plan day's name shown on calendar cards ("Push Day"); `nil` when the client has none.
    public var dayName: String?
    /// The multi-week plan it belongs to, if any.
    public var plan: WorkoutPlan?
    public var exercises: [PerformedExercise]

    public init(
        id: String, name: String, completedAt: Date, templateID: String? = nil, dayName: String? = nil,
        plan: WorkoutPlan? = nil, exercises: [PerformedExercise]
    ) {
        self.id = id
        self.name = name
        self.completedAt = completedAt
        self.templateID = templateID
        self.dayName = dayName
        self.plan = plan
        self.exercises = exercises
    }

    /// What a calendar card calls the workout: the plan day's name, or the workout's own name without one.
    public var cardName: String { dayName ?? name }

    /// Sets logged over all exercises, bodyweight sets included.
    public var setCount: Int { exercises.reduce(0) { $0 + $1.sets.count } }
}
