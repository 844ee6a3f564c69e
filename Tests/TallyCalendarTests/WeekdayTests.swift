import Testing
import TallyCalendar

@Suite struct WeekStartTests {
    @Test func februaryTwentyTwentySixStartsOnSunday() throws {
        let first = try LocalDate(parsing: "2026-02-01")
        #expect(WeekStart.sunday.leadingBlanks(before: first.weekday) == 0)
        #expect(WeekStart.monday.leadingBlanks(before: first.weekday) == 6)
    }

    @Test func startOfWeek() throws {
        let wednesday = try LocalDate(parsing: "2026-11-25")
        #expect(WeekStart.sunday.startOfWeek(containing: wednesday).description == "2026-11-22")
        #expect(WeekStart.monday.startOfWeek(containing: wednesday).description == "2026-11-23")
        let sunday = try LocalDate(parsing: "2026-11-22")
        #expect(WeekStart.monday.startOfWeek(containing: sunday).description == "2026-11-16")
        #expect(WeekStart.sunday.startOfWeek(containing: sunday) == sunday)
    }

    @Test func columnOrder() {
        #expect(WeekStart.monday.orderedWeekdays.first == .monday)
        #expect(WeekStart.monday.orderedWeekdays.last == .sunday)
        #expect(WeekStart.sunday.orderedWeekdays == Weekday.allCases)
    }
}
