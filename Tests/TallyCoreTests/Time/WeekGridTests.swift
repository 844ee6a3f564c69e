import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct WeekGridTests {
    typealias F = StepFixtures

    // Today 2026-03-15 is a Sunday; the window starts on Saturday 2026-02-14.

    @Test func sundayFirst() {
        let grid = WeekGrid(first: F.day("2026-02-14"), last: F.day("2026-03-15"), weekStart: .sunday)
        #expect(grid.columns == [.sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday])
        // Saturday is the 7th column: 6 blanks; 6 + 30 = 36 cells, padded to 42: 6 trailing blanks, 6 rows.
        #expect(grid.leadingBlanks == 6)
        #expect(grid.trailingBlanks == 6)
        #expect(grid.weeks.count == 6)
        #expect(grid.weeks[0] == [nil, nil, nil, nil, nil, nil, F.day("2026-02-14")])
        #expect(grid.weeks[1].first == F.day("2026-02-15"))
        #expect(grid.weeks[5] == [F.day("2026-03-15"), nil, nil, nil, nil, nil, nil])
        #expect(grid.weeks.allSatisfy { $0.count == 7 })
    }

    @Test func mondayFirst() {
        let grid = WeekGrid(first: F.day("2026-02-14"), last: F.day("2026-03-15"), weekStart: .monday)
        #expect(grid.columns == [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday])
        // Saturday is the 6th column: 5 blanks; 5 + 30 = 35 cells: no trailing blanks, 5 rows.
        #expect(grid.leadingBlanks == 5)
        #expect(grid.trailingBlanks == 0)
        #expect(grid.weeks.count == 5)
        #expect(grid.weeks[0] == [nil, nil, nil, nil, nil, F.day("2026-02-14"), F.day("2026-02-15")])
        #expect(
            grid.weeks[4] == [
                F.day("2026-03-09"), F.day("2026-03-10"), F.day("2026-03-11"), F.day("2026-03-12"),
                F.day("2026-03-13"), F.day("2026-03-14"), F.day("2026-03-15"),
            ])
    }

    @Test func aWindowStartingOnAFridayBothWays() {
        // Today Saturday 2026-05-30; the window starts Friday 2026-05-01.
        let sunday = WeekGrid(first: F.day("2026-05-01"), last: F.day("2026-05-30"), weekStart: .sunday)
        #expect(sunday.leadingBlanks == 5)  // 5 + 30 = 35
        #expect(sunday.trailingBlanks == 0)
        #expect(sunday.weeks.count == 5)
        #expect(sunday.weeks[4].last == F.day("2026-05-30"))
        let monday = WeekGrid(first: F.day("2026-05-01"), last: F.day("2026-05-30"), weekStart: .monday)
        #expect(monday.leadingBlanks == 4)  // 4 + 30 = 34, padded to 35
        #expect(monday.trailingBlanks == 1)
        #expect(
            monday.weeks[4] == [
                F.day("2026-05-25"), F.day("2026-05-26"), F.day("2026-05-27"), F.day("2026-05-28"),
                F.day("2026-05-29"), F.day("2026-05-30"), nil,
            ])
    }

    @Test func everyDayAppearsOnceInOrder() {
        let grid = WeekGrid(first: F.day("2026-02-14"), last: F.day("2026-03-15"), weekStart: .sunday)
        let dates = grid.weeks.flatMap { $0 }.compactMap { $0 }
        #expect(dates.count == 30)
        #expect(dates.first == F.day("2026-02-14"))
        #expect(dates.last == F.day("2026-03-15"))
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0.days(to: $1) == 1 })
    }
}
