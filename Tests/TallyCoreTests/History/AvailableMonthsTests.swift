import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

/// The month picker: months with records up to today, plus the current month; 3 for free users.
@Suite struct AvailableMonthsTests {
    typealias F = StepFixtures

    func months(_ texts: [String]) throws -> [YearMonth] { try texts.map { try YearMonth(parsing: $0) } }

    @Test func monthsWithRecordsPlusTheCurrentMonth() throws {
        let history = F.history([
            ("2026-02-03", 10), ("2025-11-30", 10), ("2026-01-15", 10), ("2025-11-01", 0), ("2026-05-01", 10),
        ])
        let available = AvailableMonths(history: history, today: F.day("2026-04-10"))
        #expect(available.all == (try months(["2025-11", "2026-01", "2026-02", "2026-04"])))
        #expect(available.current == (try YearMonth(parsing: "2026-04")))
        #expect(available.futureRecordsIgnored == 1)

        #expect(Array(available.visible(isPro: false)) == (try months(["2026-01", "2026-02", "2026-04"])))
        #expect(available.lockedCount(isPro: false) == 1)
        #expect(Array(available.visible(isPro: true)) == available.all)
        #expect(available.lockedCount(isPro: true) == 0)

        #expect(available.needsPro(try YearMonth(parsing: "2025-11")))
        #expect(available.needsPro(try YearMonth(parsing: "2025-12")))
        #expect(!available.needsPro(try YearMonth(parsing: "2026-01")))
        // A month without records between visible months holds nothing to unlock.
        #expect(!available.needsPro(try YearMonth(parsing: "2026-03")))
    }

    @Test func noRecordsStillOffersTheCurrentMonth() throws {
        let available = AvailableMonths(history: F.history([DailyRecordParams]()), today: F.day("2026-11-23"))
        #expect(available.all == (try months(["2026-11"])))
        #expect(available.lockedCount(isPro: false) == 0)
    }

    @Test func recordOfTodayDoesNotDuplicateTheCurrentMonth() throws {
        let available = AvailableMonths(history: F.history([("2026-11-23", 5)]), today: F.day("2026-11-23"))
        #expect(available.all == (try months(["2026-11"])))
    }
}
