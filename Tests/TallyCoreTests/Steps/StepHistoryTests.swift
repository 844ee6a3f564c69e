import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct StepHistoryTests {
    func record(_ date: String, _ steps: Int) throws -> DailyRecordParams {
        DailyRecordParams(date: try LocalDate(parsing: date), steps: steps)
    }

    @Test func missingDayIsNoDataAndZeroIsData() throws {
        let history = try StepHistory([record("2026-01-03", 0), record("2026-01-01", 900)])
        #expect(history[try LocalDate(parsing: "2026-01-02")] == nil)
        #expect(history[try LocalDate(parsing: "2026-01-03")]?.steps == 0)
        #expect(history.records.map(\.date.description) == ["2026-01-01", "2026-01-03"])
    }

    @Test func duplicateDatesNameBothPlaces() throws {
        let error = #expect(throws: StepHistory.DuplicateDate.self) {
            try StepHistory([record("2026-01-01", 1), record("2026-01-02", 2), record("2026-01-01", 3)])
        }
        #expect(error?.date == (try LocalDate(parsing: "2026-01-01")))
        #expect(error?.first == 0)
        #expect(error?.second == 2)
    }

    @Test func slicesByMonth() throws {
        let history = try StepHistory([
            record("2026-01-31", 1), record("2026-02-01", 2), record("2026-02-28", 3), record("2026-03-01", 4),
        ])
        #expect(history.records(in: YearMonth(year: 2026, month: 2)!).map(\.steps) == [2, 3])
        #expect(history.records(in: LocalDate.latest.adding(days: -3)...LocalDate.latest).isEmpty)
    }
}
