import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct WorkoutPlanTests {
    let plan = PlanParams(id: "ppl", name: "PPL", startDate: LocalDate(year: 2026, month: 3, day: 1)!, weeks: 8)

    @Test(arguments: [
        ("2026-03-01", 1),  // the start day
        ("2026-03-07", 1),  // day 6
        ("2026-03-08", 2),  // day 7: the spring-forward Sunday in New York, still exactly one week later
        ("2026-03-14", 2),  // day 13
        ("2026-03-15", 3),  // day 14
        ("2026-04-25", 8),  // day 55: floor(55 / 7) + 1 = 8, the last week
        ("2026-04-26", 8),  // day 56 would be week 9: capped at the plan's 8 weeks
        ("2027-01-01", 8),  // long after the end: still capped
    ])
    func weekCountsCalendarDays(date: String, week: Int) throws {
        #expect(plan.week(on: try LocalDate(parsing: date)) == week)
    }

    @Test func noWeekBeforeTheStart() throws {
        #expect(plan.week(on: try LocalDate(parsing: "2026-02-28")) == nil)
        #expect(plan.week(on: try LocalDate(parsing: "2025-12-31")) == nil)
    }

    @Test func aOneWeekPlanIsAlwaysWeekOne() throws {
        let short = PlanParams(startDate: try LocalDate(parsing: "2026-03-01"), weeks: 1)
        #expect(short.week(on: try LocalDate(parsing: "2026-03-01")) == 1)
        #expect(short.week(on: try LocalDate(parsing: "2026-03-20")) == 1)
    }
}
