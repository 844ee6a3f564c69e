import TallyCalendar

/// A run of consecutive days on each of which the goal active that day was met.
///
/// Runs are built one day at a time while the history is swept in date order, so the total is the exact sum of
/// the days' steps (the app's `Int(avg) × count` drifts by up to `count − 1` steps; Tally reports the sum).
package struct StreakRun: Sendable, Hashable {
    /// The first day of the run.
    package private(set) var start: LocalDate
    /// The last day of the run.
    package private(set) var end: LocalDate
    /// Days in the run (`end − start + 1`, less any dates the zone skipped in between; every day of it has a
    /// record).
    package private(set) var count: Int
    /// Sum of the steps of the run's days.
    package private(set) var totalSteps: Int

    /// A run of the single day `date`.
    package init(day date: LocalDate, steps: Int) {
        self.start = date
        self.end = date
        self.count = 1
        self.totalSteps = steps
    }

    /// Mean steps per day of the run (a run is never empty, so this is always finite).
    package var averageSteps: Double { Double(totalSteps) / Double(count) }

    /// Whether `date` lies inside the run.
    package func contains(_ date: LocalDate) -> Bool { start <= date && date <= end }

    /// Whether a met goal on `date` continues this run rather than starting a new one: `date` is the next day
    /// the zone lived after `end`.
    package func isContinued(by date: LocalDate, in days: StreakDays = .gregorian) -> Bool {
        days.follows(date, after: end)
    }

    /// Appends the day lived after `end`.
    /// - Important: callers check `isContinued(by:)` first; a gap would make `count` disagree with the dates.
    mutating func append(_ date: LocalDate, steps: Int) {
        end = date
        count += 1
        totalSteps += steps
    }
}
