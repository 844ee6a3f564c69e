import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

/// The home dashboard: the week and month around the selected day, totals, and the review prompt rule.
@Suite struct StepDashboardTests {
    typealias F = StepFixtures

    static let berlin = ZoneCalendar(identifier: "Europe/Berlin")!

    func dashboard(
        _ mode: DashboardMode, date: String, today: String, records: [(String, Int)],
        tracking: Bool = true, weekStart: WeekStart = .sunday
    ) throws -> StepDashboard {
        try StepDashboard(
            mode: mode, date: F.day(date), history: F.history(records), samples: [],
            goals: GoalSettings(trackingEnabled: tracking, log: GoalLog(constant: 8000)), today: F.day(today),
            now: nil, calendar: Self.berlin, weekStart: weekStart)
    }

    func days(_ dashboard: StepDashboard) throws -> [HistoryDay] {
        guard case .days(let days) = dashboard.series else {
            Issue.record("expected a day series")
            return []
        }
        return days
    }

    @Test func weekHoldingTheSelectedDayBySundayOrMonday() throws {
        // 2026-03-11 is a Wednesday.
        let records = [("2026-03-08", 1000), ("2026-03-09", 2000), ("2026-03-12", 4000), ("2026-03-15", 8000)]
        let sunday = try days(dashboard(.weekly, date: "2026-03-11", today: "2026-03-12", records: records))
        #expect(sunday.map(\.date) == (8...14).map { F.day("2026-03-\(String(format: "%02d", $0))") })
        let monday = try dashboard(
            .weekly, date: "2026-03-11", today: "2026-03-12", records: records, weekStart: .monday)
        #expect(try days(monday).map(\.date).first == F.day("2026-03-09"))
        #expect(try days(monday).map(\.date).last == F.day("2026-03-15"))
        // The 15th is future: its record counts nowhere.
        #expect(try days(monday).last?.state == .future)
        #expect(monday.totals.steps == 6000)
        #expect(monday.totals.count == 2)
    }

    @Test func monthOfTheSelectedDay() throws {
        let dashboard = try dashboard(.monthly, date: "2024-02-10", today: "2024-03-01", records: [("2024-02-29", 500)])
        let days = try days(dashboard)
        #expect(days.count == 29)
        #expect(days.last?.record?.steps == 500)
        #expect(dashboard.totals.steps == 500)
        #expect(dashboard.day.date == F.day("2024-02-10"))
        #expect(dashboard.day.state == .noData)
    }

    @Test func reviewPromptOnlyForTodayWithTheGoalMetAndTrackingOn() throws {
        let met = [("2026-03-12", 8000), ("2026-03-11", 9000)]
        #expect(try dashboard(.daily, date: "2026-03-12", today: "2026-03-12", records: met).reviewPromptDue)
        #expect(try !dashboard(.daily, date: "2026-03-11", today: "2026-03-12", records: met).reviewPromptDue)
        #expect(
            try !dashboard(.daily, date: "2026-03-12", today: "2026-03-12", records: met, tracking: false)
                .reviewPromptDue)
        let short = [("2026-03-12", 7999)]
        #expect(try !dashboard(.daily, date: "2026-03-12", today: "2026-03-12", records: short).reviewPromptDue)
        #expect(try !dashboard(.daily, date: "2026-03-12", today: "2026-03-12", records: []).reviewPromptDue)
        #expect(try dashboard(.weekly, date: "2026-03-12", today: "2026-03-12", records: met).reviewPromptDue)
    }
}
