/// The current workout streak: consecutive days with at least one workout.
///
/// Counted back from yesterday, with today added once it has a workout: a streak is not broken just because
/// today's workout has not happened yet, and the number is what the "Streak: X days" badge shows. Days after
/// today never count.
public struct WorkoutStreak: Sendable, Hashable {
    /// Consecutive days, 0 when neither today nor yesterday has a workout.
    public let days: Int
    /// The streak's first day, `nil` when `days` is 0.
    public let startDate: LocalDate?
    /// Whether today is part of it (today has a workout).
    public let includesToday: Bool

    /// The streak ending today or yesterday among `workoutDates` (local dates, any order, repeats allowed).
    public init(workoutDates: some Sequence<LocalDate>, today: LocalDate) {
        var logged = Set<Int32>()
        for date in workoutDates where date <= today { logged.insert(date.dayNumber) }
        let includesToday = logged.contains(today.dayNumber)
        let last = includesToday ? today : today.adding(days: -1)
        var first = last
        var days = 0
        while logged.contains(first.dayNumber) {
            days += 1
            let previous = first.adding(days: -1)
            guard previous != first else { break }
            first = previous
        }
        self.days = days
        self.startDate = days > 0 ? last.adding(days: 1 - days) : nil
        self.includesToday = includesToday
    }

    /// The streak of the workouts in `timeline`.
    public init(timeline: ActivityTimeline, today: LocalDate) {
        self.init(workoutDates: timeline.entries.lazy.filter { $0.kind == .workout }.map(\.date), today: today)
    }
}
