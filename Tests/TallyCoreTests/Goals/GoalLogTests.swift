import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct GoalLogTests {
    func date(_ text: String) throws -> LocalDate { try LocalDate(parsing: text) }

    @Test func goalOfADayIsTheLatestEntryOnOrBeforeIt() throws {
        let log = try GoalLog([
            .init(effectiveDate: date("2026-03-15"), goal: 12_000),
            .init(effectiveDate: date("2026-01-01"), goal: 8_000),
        ])
        #expect(log.goal(on: try date("2025-06-01")) == 8_000)  // before the first entry: the first goal
        #expect(log.goal(on: try date("2026-03-14")) == 8_000)
        #expect(log.goal(on: try date("2026-03-15")) == 12_000)
        #expect(log.goal(on: try date("2030-01-01")) == 12_000)
    }

    @Test func refusesBadLogs() throws {
        #expect(throws: GoalLog.Problem.empty) { try GoalLog([]) }
        #expect(throws: GoalLog.Problem.nonPositiveGoal(index: 1)) {
            try GoalLog([
                .init(effectiveDate: date("2026-01-01"), goal: 5), .init(effectiveDate: date("2026-01-02"), goal: 0),
            ])
        }
        #expect(throws: GoalLog.Problem.duplicateEffectiveDate(first: 0, second: 2)) {
            try GoalLog([
                .init(effectiveDate: date("2026-01-01"), goal: 5),
                .init(effectiveDate: date("2026-02-01"), goal: 6),
                .init(effectiveDate: date("2026-01-01"), goal: 7),
            ])
        }
    }

    @Test func progressIsCappedAtOne() throws {
        let settings = GoalSettings(trackingEnabled: true, log: GoalLog(constant: 10_000))
        #expect(settings.progress(steps: 5_000, on: try date("2026-01-01")) == 0.5)
        #expect(settings.progress(steps: 25_000, on: try date("2026-01-01")) == 1)
        #expect(settings.meetsGoal(steps: 10_000, on: try date("2026-01-01")))
        #expect(!settings.meetsGoal(steps: 9_999, on: try date("2026-01-01")))
    }
}
