/// How many workouts use each template: the "Logged N times" badge.
public struct TemplateUsage: Sendable, Hashable {
    /// Workouts per template id; templates never used are absent.
    public let counts: [String: Int]

    /// Counts the workouts of `workouts` per template id (workouts without one are not counted).
    public init(_ workouts: some Sequence<PerformedWorkout>) {
        var counts: [String: Int] = [:]
        for workout in workouts {
            if let template = workout.templateID { counts[template, default: 0] += 1 }
        }
        self.counts = counts
    }

    /// Workouts logged from `templateID`.
    public func timesLogged(_ templateID: String) -> Int { counts[templateID] ?? 0 }
}
