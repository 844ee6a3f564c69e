import Foundation
import TallyCalendar
import TallyProtocol

/// Every activity of a request, each bucketed once into its local civil day in the request's zone, in
/// calendar order.
///
/// Bucketing asks the zone for one UTC offset per activity and nothing else, so building a timeline is linear
/// in the number of activities (plus the sort); every later question (a month, a day, a streak) is answered
/// from the civil dates with integer arithmetic.
package struct ActivityTimeline: Sendable {
    /// One activity on its local date.
    package struct Entry: Sendable, Hashable {
        /// The local civil date of its completion.
        package let date: LocalDate
        package let activity: Activity
        /// Its position in the request's list of its type: the last tie-breaker, so the order is total.
        package let position: Int

        package var type: ActivityType { activity.type }
    }

    /// What calendar order compares, kept apart from the activities so that sorting moves small plain keys
    /// instead of whole workouts: by local date, then completion instant; activities completed at the same instant go
    /// workout, stretch, meditation, and within a type in the order the request listed them.
    private struct SortKey: Comparable {
        let day: Int32
        let instant: Instant
        let typeRank: Int
        let position: Int
        /// Where the entry sits in the unsorted list.
        let slot: Int

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.day, lhs.instant, lhs.typeRank, lhs.position) < (rhs.day, rhs.instant, rhs.typeRank, rhs.position)
        }
    }

    /// All entries in calendar order. Sorting by date before instant matters only where a zone turned its clocks
    /// back across midnight, when a later instant can fall on the earlier date.
    package let entries: [Entry]
    /// Activities left out because they are future (`ReferenceDay`'s rule).
    package let futureEntriesIgnored: Int

    /// Buckets and orders the activities.
    /// - Parameter reference: today (and now) of the request: activities after it are future, left out and counted
    ///   in `futureEntriesIgnored`; `nil` keeps every activity (for callers that left the future out already).
    package init(
        workouts: [WorkoutParams], stretches: [StretchParams] = [], meditations: [MeditationParams] = [],
        calendar: ZoneCalendar, reference: ReferenceDay? = nil
    ) {
        var entries: [Entry] = []
        entries.reserveCapacity(workouts.count + stretches.count + meditations.count)
        for (position, workout) in workouts.enumerated() {
            entries.append(
                Entry(
                    date: calendar.localDate(of: workout.completedAt.instant), activity: .workout(workout), position: position))
        }
        for (position, stretch) in stretches.enumerated() {
            entries.append(
                Entry(
                    date: calendar.localDate(of: stretch.completedAt.instant), activity: .stretch(stretch), position: position))
        }
        for (position, meditation) in meditations.enumerated() {
            entries.append(
                Entry(
                    date: calendar.localDate(of: meditation.completedAt.instant), activity: .meditation(meditation),
                    position: position))
        }
        let all = entries.count
        if let reference {
            entries.removeAll { reference.isFuture($0.activity.completedAt, on: $0.date) }
        }
        self.futureEntriesIgnored = all - entries.count
        let order = entries.indices.map { slot in
            let entry = entries[slot]
            return SortKey(
                day: entry.date.dayNumber, instant: entry.activity.completedAt,
                typeRank: entry.type.tieBreakRank, position: entry.position, slot: slot)
        }.sorted()
        self.entries = order.map { entries[$0.slot] }
    }

    /// Entries dated within `range`, in calendar order.
    package func entries(in range: ClosedRange<LocalDate>) -> ArraySlice<Entry> {
        let start = partition { $0.date < range.lowerBound }
        let end = partition { $0.date <= range.upperBound }
        return entries[start..<max(start, end)]
    }

    /// Entries of local day `date`, in calendar order.
    package func entries(on date: LocalDate) -> ArraySlice<Entry> { entries(in: date...date) }

    /// The number of leading entries for which `isBefore` holds (a binary search: `isBefore` must be true for
    /// a prefix of the entries and false after it).
    private func partition(_ isBefore: (Entry) -> Bool) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(entries[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
