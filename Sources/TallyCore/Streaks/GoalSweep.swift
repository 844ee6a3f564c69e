import TallyCalendar
import TallyProtocol

/// Reads a goal log for dates visited in ascending order, in amortised O(1) per date.
///
/// `GoalLog.goal(on:)` binary-searches every call; a streak sweep over ten years of days asks once per day,
/// always later than the previous date, so a cursor that only moves forward does the whole sweep in
/// O(days + goal changes).
struct GoalSweep {
    private let entries: [GoalChange]
    private var index = 0

    init(_ log: GoalLog) {
        self.entries = log.entries
    }

    /// The goal active on `date`: the entry with the latest effective date ≤ `date`, or the first entry's goal
    /// before the log begins (as `GoalLog.goal(on:)`).
    /// - Important: dates must not decrease between calls.
    mutating func goal(on date: LocalDate) -> Int {
        while index + 1 < entries.count, entries[index + 1].effectiveDate <= date {
            index += 1
        }
        return entries[index].goal
    }
}
