import TallyCalendar
import TallyProtocol

/// The history of a user's daily step goal: each past day is judged against the goal active on that day.
///
/// The goal for date D is the entry with the latest effective date ≤ D; before the first entry, the first
/// entry's goal (the app had a goal before it started logging changes).
package struct GoalLog: Sendable, Equatable {
    /// Why entries do not form a goal log; indices are positions in the list as given.
    package enum Problem: Error, Hashable, Sendable {
        /// The list is empty, so no day has a goal.
        case empty
        /// Entry `index` has a goal ≤ 0.
        case nonPositiveGoal(index: Int)
        /// Entries `first` and `second` take effect on the same date.
        case duplicateEffectiveDate(first: Int, second: Int)
    }

    /// Entries sorted by effective date, ascending.
    package let entries: [GoalChange]

    /// Validates and sorts `entries` (they may come in any order).
    /// - Throws: `GoalLog.Problem` naming the offending entries.
    package init(_ entries: [GoalChange]) throws(Problem) {
        guard !entries.isEmpty else { throw .empty }
        if let bad = entries.firstIndex(where: { $0.goal <= 0 }) { throw .nonPositiveGoal(index: bad) }
        let order = entries.indices.sorted { entries[$0].effectiveDate < entries[$1].effectiveDate }
        for (previous, next) in zip(order, order.dropFirst())
        where entries[previous].effectiveDate == entries[next].effectiveDate {
            throw .duplicateEffectiveDate(first: min(previous, next), second: max(previous, next))
        }
        self.entries = order.map { entries[$0] }
    }

    /// A log with one goal for all time.
    package init(constant goal: Int) {
        precondition(goal > 0, "a step goal is > 0")
        self.entries = [GoalChange(effectiveDate: .earliest, goal: goal)]
    }

    /// The goal active on `date`.
    package func goal(on date: LocalDate) -> Int {
        // Binary search for the last entry with effectiveDate ≤ date.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].effectiveDate <= date { low = middle + 1 } else { high = middle }
        }
        return entries[max(low - 1, 0)].goal
    }
}
