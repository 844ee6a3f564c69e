import TallyCalendar
import TallyProtocol

/// The current workout streak: consecutive days with at least one workout.
///
/// Counted back from yesterday, with today added once it has a workout: a streak is not broken just because
/// today's workout has not happened yet, and the number is what the "Streak: X days" badge shows. Days after
/// today never count.
package struct WorkoutStreak: Sendable, Hashable {
    /// Consecutive days, 0 when neither today nor yesterday has a workout.
    package let days: Int
    /// The streak's first day, `nil` when `days` is 0.
    package let startDate: LocalDate?
    /// The streak's last day: today when it includes today, otherwise yesterday; `nil` when `days` is 0.
    package let endDate: LocalDate?
    /// Whether today is part of it (today has a workout).
    package let includesToday: Bool

    /// The streak ending today or yesterday among `workoutDates` (local dates, any order, repeats allowed).
    /// - Parameter lived: the zone's succession of days: a date the zone skipped neither counts nor breaks it.
    package init(workoutDates: some Sequence<LocalDate>, today: LocalDate, lived: StreakDays = .gregorian) {
        var logged = Set<Int32>()
        for date in workoutDates where date <= today { logged.insert(date.dayNumber) }
        let includesToday = logged.contains(today.dayNumber)
        var day = includesToday ? today : lived.previous(today)
        let end = logged.contains(day.dayNumber) ? day : nil
        var start: LocalDate?
        var days = 0
        while logged.contains(day.dayNumber) {
            days += 1
            start = day
            let previous = lived.previous(day)
            guard previous < day else { break }
            day = previous
        }
        self.days = days
        self.startDate = start
        self.endDate = end
        self.includesToday = includesToday
    }

    /// The streak of the workouts in `timeline`.
    package init(timeline: ActivityTimeline, today: LocalDate, lived: StreakDays = .gregorian) {
        self.init(
            workoutDates: timeline.entries.lazy.filter { $0.type == .workout }.map(\.date), today: today, lived: lived)
    }
}
