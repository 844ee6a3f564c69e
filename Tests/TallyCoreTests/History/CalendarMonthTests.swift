import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

/// The history calendar's month: grid sizes by week start, day states against the goal of each day, list rows.
@Suite struct CalendarMonthTests {
    typealias F = StepFixtures

    static let goal8000 = GoalSettings(trackingEnabled: true, log: GoalLog(constant: 8000))

    func month(
        _ text: String, _ records: [(String, Int)] = [], goals: GoalSettings = Self.goal8000, today: String,
        weekStart: WeekStart = .sunday
    ) throws -> CalendarMonth {
        let month = try YearMonth(parsing: text)
        return CalendarMonth(
            month: month, history: F.history(records), goals: goals, today: F.day(today), weekStart: weekStart)
    }

    func day(_ month: CalendarMonth, _ date: String) throws -> HistoryDay {
        try #require(month.days.first { $0.date == F.day(date) })
    }

    @Test func february2026StartsOnSunday() throws {
        // 2026-02-01 is a Sunday: no blank Sunday-first (28 cells, 4 rows); 6 blanks Monday-first (35 cells).
        let sundayFirst = try month("2026-02", today: "2026-02-20")
        #expect(sundayFirst.grid.leadingBlanks == 0)
        #expect(sundayFirst.grid.cellCount == 28)
        #expect(sundayFirst.grid.trailingBlanks == 0)
        #expect(sundayFirst.grid.weeks.first?.first == F.day("2026-02-01"))

        let mondayFirst = try month("2026-02", today: "2026-02-20", weekStart: .monday)
        #expect(mondayFirst.grid.leadingBlanks == 6)
        #expect(mondayFirst.grid.cellCount == 35)
        #expect(mondayFirst.grid.trailingBlanks == 1)
        #expect(mondayFirst.grid.weeks[0] == [nil, nil, nil, nil, nil, nil, F.day("2026-02-01")])
    }

    @Test func leapDay2024() throws {
        // 2024-02-01 is a Thursday: 4 blanks Sunday-first, 4 + 29 = 33 → 35 cells; 3 blanks Monday-first → 35.
        let month = try month("2024-02", [("2024-02-29", 10_000)], today: "2024-03-05")
        #expect(month.days.count == 29)
        #expect(month.grid.leadingBlanks == 4)
        #expect(month.grid.cellCount == 35)
        #expect(month.grid.trailingBlanks == 2)
        let leapDay = try day(month, "2024-02-29")
        #expect(leapDay.state == .completed)
        #expect(leapDay.record?.steps == 10_000)
        #expect(month.rows.map(\.date) == [F.day("2024-02-29")])

        let mondayFirst = try self.month("2024-02", today: "2024-03-05", weekStart: .monday)
        #expect(mondayFirst.grid.leadingBlanks == 3)
        #expect(mondayFirst.grid.cellCount == 35)
    }

    @Test func aMonthNeedsSixRows() throws {
        // 2026-08-01 is a Saturday: 6 blanks + 31 days = 37 → 42 cells Sunday-first; Monday-first 5 + 31 → 42.
        #expect(try month("2026-08", today: "2026-08-31").grid.cellCount == 42)
        #expect(try month("2026-08", today: "2026-08-31", weekStart: .monday).grid.cellCount == 42)
    }

    @Test func goalChangedMidMonthJudgesEachDayByItsOwnGoal() throws {
        let goals = GoalSettings(trackingEnabled: true, log: F.goals([("2026-01-01", 8000), ("2026-02-15", 10_000)]))
        let month = try month(
            "2026-02", [("2026-02-14", 9000), ("2026-02-15", 9000)], goals: goals, today: "2026-02-20")
        let before = try day(month, "2026-02-14")
        #expect(before.goal == 8000)
        #expect(before.progress == 1)
        #expect(before.state == .completed)
        #expect(before.intensity == 1)
        let after = try day(month, "2026-02-15")
        #expect(after.goal == 10_000)
        #expect(after.progress == 0.9)
        #expect(after.state == .inProgress)
        #expect(after.intensity == 0.9)
        #expect(month.completedDays == 1)
    }

    @Test func missingDayIsNotAZeroDay() throws {
        let month = try month("2026-02", [("2026-02-11", 0)], today: "2026-02-20")
        let missing = try day(month, "2026-02-10")
        #expect(missing.state == .noData)
        #expect(missing.record == nil)
        #expect(missing.progress == nil)
        #expect(missing.intensity == nil)
        let zero = try day(month, "2026-02-11")
        #expect(zero.state == .zero)
        #expect(zero.record?.steps == 0)
        #expect(zero.progress == 0)
        #expect(zero.intensity == nil)
        // The zero day is a list row (it has data); the missing day is not.
        #expect(month.rows.map(\.date) == [F.day("2026-02-11")])
    }

    @Test func goalTrackingOffShowsFullNeverCompleted() throws {
        let goals = GoalSettings(trackingEnabled: false, log: GoalLog(constant: 8000))
        let month = try month(
            "2026-02", [("2026-02-01", 12_000), ("2026-02-02", 4000)], goals: goals, today: "2026-02-20")
        #expect(try day(month, "2026-02-01").state == .full)
        #expect(try day(month, "2026-02-01").intensity == 1)
        #expect(try day(month, "2026-02-02").state == .inProgress)
        #expect(try day(month, "2026-02-02").progress == 0.5)
        #expect(month.completedDays == 0)
    }

    @Test func todayFutureDaysAndRows() throws {
        let month = try month(
            "2026-02", [("2026-02-03", 500), ("2026-02-20", 9000), ("2026-02-21", 7000), ("2026-02-10", 8000)],
            today: "2026-02-20")
        #expect(try day(month, "2026-02-20").isToday)
        #expect(month.days.count { $0.isToday } == 1)
        // A record after today is ignored: the day is future, without data, and not a row.
        let tomorrow = try day(month, "2026-02-21")
        #expect(tomorrow.state == .future)
        #expect(tomorrow.isFuture)
        #expect(tomorrow.record == nil)
        #expect(month.days.count { $0.isFuture } == 8)
        #expect(month.rows.map(\.date) == ["2026-02-20", "2026-02-10", "2026-02-03"].map(F.day))
        #expect(month.totals.steps == 17_500)
        #expect(month.totals.count == 3)
    }

    @Test func totalsKeepUnreportedMeasuresNull() throws {
        let records = [
            DailyRecordParams(date: F.day("2026-02-01"), steps: 1000, distanceMeters: 700.5),
            DailyRecordParams(date: F.day("2026-02-02"), steps: 2000, distanceMeters: 1400, flightsClimbed: 3),
        ]
        let month = CalendarMonth(
            month: try YearMonth(parsing: "2026-02"), history: F.history(records), goals: Self.goal8000,
            today: F.day("2026-02-28"), weekStart: .sunday)
        #expect(month.totals.steps == 3000)
        #expect(month.totals.distanceMeters == 2100.5)
        #expect(month.totals.calories == nil)
        #expect(month.totals.flightsClimbed == 3)
    }

    @Test func lateEveningInNewYorkIsStillToday() throws {
        // 23:30 EDT on 2026-03-10 is already 03:30 on 03-11 in UTC: today is the 10th in New York.
        let newYork = try #require(ZoneCalendar(identifier: "America/New_York"))
        let now = try #require(ISO8601DateFormatter().date(from: "2026-03-11T03:30:00Z"))
        let today = ReferenceDay(now: Instant(now), in: newYork).today
        #expect(today == F.day("2026-03-10"))
        let month = try month("2026-03", [("2026-03-10", 9000), ("2026-03-11", 3000)], today: today.description)
        #expect(try day(month, "2026-03-10").isToday)
        #expect(try day(month, "2026-03-10").state == .completed)
        #expect(try day(month, "2026-03-11").state == .future)
    }
}
