import TallyCalendar
import TallyProtocol

/// The current and the best streak of a step history, with each day judged against the goal active that day.
///
/// Rules (the app's `currentGoalStreakDetails` and `bestGoalStreakDetails`, with Tally's decisions):
/// - A day *counts* when it has a record and its steps are ≥ the goal of that day. A missing day, a zero day
///   and any day below its goal break a run.
/// - The current streak is the run of counting days going back from yesterday; today joins it once today's goal
///   is met, so `current.count` is the number the flame badge shows. Yesterday not counting and today not yet
///   met means no current streak.
/// - The best streak is the longest run over the whole history up to today (today included once met); of runs
///   of equal length the most recent wins.
/// - Records dated after today are future: they neither count nor break anything, and are reported as ignored.
/// - A date the zone skipped (Pacific/Apia's 2011-12-30) was never lived: without a record it neither counts nor
///   breaks a run, and the day before it is "yesterday" of the day after it (`StreakDays`). A record dated on it
///   is a day like any other: a run that ends on it ends after yesterday, so it is current.
package struct Streaks: Sendable, Hashable {
    /// The run the badge shows, or `nil` when it shows 0.
    package let current: StreakRun?
    /// The longest run ever (most recent on a tie), or `nil` when no day ever met its goal.
    package let best: StreakRun?
    /// Whether today has a record that meets today's goal.
    package let todayGoalMet: Bool
    /// Records dated after today, left out of every computation.
    package let futureRecordsIgnored: Int

    /// Sweeps `history` once in date order: O(records + goal changes).
    /// - Parameter days: the zone's succession of days; `.gregorian` (every date) when no zone skips any.
    package init(history: StepHistory, goals: GoalLog, today: LocalDate, days: StreakDays = .gregorian) {
        var sweep = GoalSweep(goals)
        var run: StreakRun?
        var best: StreakRun?
        var todayGoalMet = false
        var pastRecords = 0
        for record in history.records {
            guard record.date <= today else { break }
            pastRecords += 1
            guard record.steps >= sweep.goal(on: record.date) else {
                // Today below its goal is still in progress: it ends no run, the day is simply not counted yet.
                if record.date != today { run = nil }
                continue
            }
            if record.date == today { todayGoalMet = true }
            if var extended = run, extended.isContinued(by: record.date, in: days) {
                extended.append(record.date, steps: record.steps)
                run = extended
            } else {
                run = StreakRun(day: record.date, steps: record.steps)
            }
            // `>=` because runs arrive in date order: an equal run found later is the more recent one.
            if let candidate = run, candidate.count >= best?.count ?? 0 { best = candidate }
        }
        // Ending yesterday or later: on the lived yesterday, on a skipped date after it (which only a record dated on
        // it can put there), or today.
        let yesterday = days.previous(today)
        self.current = run.flatMap { $0.end >= yesterday ? $0 : nil }
        self.best = best
        self.todayGoalMet = todayGoalMet
        self.futureRecordsIgnored = history.records.count - pastRecords
    }

    /// The badge number: days in the current streak, 0 without one.
    package var currentCount: Int { current?.count ?? 0 }

    /// Whether the best streak is the current one (the user is at their personal best right now).
    package var bestIsCurrent: Bool { current != nil && current == best }
}
