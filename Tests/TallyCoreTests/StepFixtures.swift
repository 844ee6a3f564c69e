import TallyCalendar
import TallyCore
import TallyProtocol

/// Small builders for the step tests (streaks, history): dates from literals, histories from day/steps lists.
enum StepFixtures {
    /// A date from a `yyyy-MM-dd` literal written in a test.
    static func day(_ text: String) -> LocalDate {
        guard let date = LocalDate(text) else { preconditionFailure("not a date in a test: \(text)") }
        return date
    }

    /// Records on consecutive days from `first`; a `nil` entry leaves that day without a record.
    static func history(from first: String, _ steps: [Int?]) -> StepHistory {
        let start = day(first)
        let records = steps.enumerated().compactMap { offset, steps in
            steps.map { DailyRecordParams(date: start.adding(days: offset), steps: $0) }
        }
        return history(records)
    }

    /// Records given as (date, steps) pairs in any order.
    static func history(_ pairs: [(String, Int)]) -> StepHistory {
        history(pairs.map { DailyRecordParams(date: day($0.0), steps: $0.1) })
    }

    static func history(_ records: [DailyRecordParams]) -> StepHistory {
        do {
            return try StepHistory(records)
        } catch {
            preconditionFailure("duplicate date in a test history: \(error.date)")
        }
    }

    /// A goal log from (effective date, goal) pairs.
    static func goals(_ changes: [(String, Int)]) -> GoalLog {
        do {
            return try GoalLog(changes.map { GoalChange(effectiveDate: day($0.0), goal: $0.1) })
        } catch {
            preconditionFailure("bad goal log in a test: \(error)")
        }
    }
}
