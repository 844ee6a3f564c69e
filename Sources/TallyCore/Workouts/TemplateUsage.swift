import TallyProtocol

/// How many workouts use each template: the "Logged N times" badge. Callers count the history up to now: a
/// workout dated in the future has not been logged yet.
package struct TemplateUsage: Sendable, Hashable {
    /// Workouts per template id; templates never used are absent.
    package let counts: [String: Int]

    /// Counts the workouts of `workouts` per template id (workouts without one are not counted).
    package init(_ workouts: some Sequence<WorkoutParams>) {
        self.init(templateIDs: workouts.compactMap(\.templateID))
    }

    /// Counts workouts from the template ids of those that have one, so that a history needs no conversion to be
    /// counted. An array rather than any sequence: a generic sequence from another module is iterated through
    /// witness tables, which for a long history costs more than the counting.
    package init(templateIDs: [String]) {
        var counts: [String: Int] = [:]
        for template in templateIDs { counts[template, default: 0] += 1 }
        self.counts = counts
    }

    /// Workouts logged from `templateID`.
    package func timesLogged(_ templateID: String) -> Int { counts[templateID] ?? 0 }
}
