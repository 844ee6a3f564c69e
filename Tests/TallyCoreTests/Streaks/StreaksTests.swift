import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct StreaksTests {
    typealias F = StepFixtures

    @Test func streakThroughYesterdayThenTodayMet() {
        // Goal 8,000. 05-05 is below it (7,999), so the streak starts on 05-06 and runs through yesterday 05-09.
        let goals = GoalLog(constant: 8_000)
        let before = F.history(from: "2026-05-05", [7_999, 9_000, 8_000, 10_000, 8_500, 3_000])
        let open = Streaks(history: before, goals: goals, today: F.day("2026-05-10"))
        #expect(open.currentCount == 4)
        #expect(open.current?.start == F.day("2026-05-06"))
        #expect(open.current?.end == F.day("2026-05-09"))
        #expect(open.current?.totalSteps == 35_500)  // 9,000 + 8,000 + 10,000 + 8,500
        #expect(open.current?.averageSteps == 8_875)
        #expect(!open.todayGoalMet)
        #expect(open.best?.count == 4)
        #expect(open.bestIsCurrent)

        // Later the same day today reaches 12,000: today joins the streak, the badge shows 5.
        let after = F.history(from: "2026-05-05", [7_999, 9_000, 8_000, 10_000, 8_500, 12_000])
        let met = Streaks(history: after, goals: goals, today: F.day("2026-05-10"))
        #expect(met.currentCount == 5)
        #expect(met.current?.start == F.day("2026-05-06"))
        #expect(met.current?.end == F.day("2026-05-10"))
        #expect(met.current?.totalSteps == 47_500)
        #expect(met.current?.averageSteps == 9_500)
        #expect(met.todayGoalMet)
        #expect(met.best == met.current)
    }

    @Test func todayMetAfterABreakIsAStreakOfOne() {
        let history = F.history(from: "2026-05-08", [9_000, nil, 8_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 8_000), today: F.day("2026-05-10"))
        #expect(streaks.currentCount == 1)
        #expect(streaks.current?.start == F.day("2026-05-10"))
        // Two runs of one day: the more recent (today) is the best.
        #expect(streaks.best?.start == F.day("2026-05-10"))
    }

    @Test func noRecordTodayKeepsTheStreakThroughYesterday() {
        let history = F.history(from: "2026-05-07", [9_000, 9_000, 9_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 8_000), today: F.day("2026-05-10"))
        #expect(streaks.currentCount == 3)
        #expect(!streaks.todayGoalMet)
    }

    @Test func aStreakThatEndedTheDayBeforeYesterdayIsNotCurrent() {
        // Runs 05-05...05-08; yesterday 05-09 has no record and today none either.
        let history = F.history(from: "2026-05-05", [9_000, 9_000, 9_000, 9_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 8_000), today: F.day("2026-05-10"))
        #expect(streaks.current == nil)
        #expect(streaks.currentCount == 0)
        #expect(streaks.best?.count == 4)
        #expect(streaks.best?.end == F.day("2026-05-08"))
        #expect(!streaks.bestIsCurrent)
    }

    @Test func aGoalRaisedMidStreakBreaksIt() {
        // 8,000 until 05-07, 10,000 from 05-08. 9,000 a day meets the old goal but not the new one.
        let goals = F.goals([("2026-01-01", 8_000), ("2026-05-08", 10_000)])
        let history = F.history(from: "2026-05-05", [9_000, 9_000, 9_000, 9_000, 9_000])
        let streaks = Streaks(history: history, goals: goals, today: F.day("2026-05-10"))
        #expect(streaks.current == nil)
        #expect(streaks.best?.start == F.day("2026-05-05"))
        #expect(streaks.best?.end == F.day("2026-05-07"))
        #expect(streaks.best?.count == 3)
        #expect(streaks.best?.totalSteps == 27_000)
    }

    @Test func aGoalRaisedAndMetKeepsTheStreak() {
        let goals = F.goals([("2026-05-08", 10_000), ("2026-01-01", 8_000)])
        let history = F.history(from: "2026-05-05", [9_000, 9_000, 9_000, 10_500, 10_000])
        let streaks = Streaks(history: history, goals: goals, today: F.day("2026-05-10"))
        #expect(streaks.currentCount == 5)
        #expect(streaks.current?.totalSteps == 47_500)
    }

    @Test func daysBeforeTheFirstGoalChangeUseTheFirstGoal() {
        // The log starts 05-08 with 6,000 then 12,000 from 05-09: 05-06 and 05-07 are judged against 6,000.
        let goals = F.goals([("2026-05-08", 6_000), ("2026-05-09", 12_000)])
        let history = F.history(from: "2026-05-06", [6_000, 6_500, 7_000, 12_000])
        let streaks = Streaks(history: history, goals: goals, today: F.day("2026-05-10"))
        #expect(streaks.currentCount == 4)
        #expect(streaks.current?.start == F.day("2026-05-06"))
    }

    @Test func aMissingDayBreaksAStreak() {
        // Goal 5,000; 05-05 has no record.
        let history = F.history(from: "2026-05-01", [6_000, 6_000, 6_000, 6_000, nil, 7_000, 7_000, 7_000, 7_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 5_000), today: F.day("2026-05-10"))
        #expect(streaks.currentCount == 4)
        #expect(streaks.current?.start == F.day("2026-05-06"))
        #expect(streaks.current?.totalSteps == 28_000)
    }

    @Test func aZeroDayBreaksAStreak() {
        let history = F.history(from: "2026-05-06", [6_000, 0, 6_000, 6_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 5_000), today: F.day("2026-05-10"))
        #expect(streaks.currentCount == 2)
        #expect(streaks.current?.start == F.day("2026-05-08"))
    }

    @Test func ofTwoBestRunsOfEqualLengthTheMoreRecentWins() {
        // Runs: 03-01...03-03 (3 days, 30,000), 03-10...03-12 (3 days, 33,000), current 03-14...03-15 (2 days).
        let history = F.history([
            ("2026-03-01", 10_000), ("2026-03-02", 10_000), ("2026-03-03", 10_000), ("2026-03-04", 100),
            ("2026-03-10", 11_000), ("2026-03-11", 11_000), ("2026-03-12", 11_000),
            ("2026-03-14", 12_000), ("2026-03-15", 12_000),
        ])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 10_000), today: F.day("2026-03-16"))
        #expect(streaks.best?.start == F.day("2026-03-10"))
        #expect(streaks.best?.end == F.day("2026-03-12"))
        #expect(streaks.best?.totalSteps == 33_000)
        #expect(streaks.currentCount == 2)
        #expect(!streaks.bestIsCurrent)
    }

    @Test func totalIsTheExactSumNotTheTruncatedAverageTimesCount() {
        // 10,001 + 10,002 + 10,002 = 30,005; the app's Int(10,001.67) × 3 would say 30,003.
        let history = F.history(from: "2026-05-07", [10_001, 10_002, 10_002])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 10_000), today: F.day("2026-05-10"))
        #expect(streaks.current?.totalSteps == 30_005)
        #expect(abs((streaks.current?.averageSteps ?? 0) - 10_001.666_666_7) < 1e-6)
    }

    @Test func aStreakAcrossTheSpringForwardDayInNewYork() throws {
        // 2026-03-08 has 23 hours in America/New_York. now = 01:30Z on 03-10 is 21:30 EDT on 03-09: today is 03-09.
        let zone = try #require(ZoneCalendar(identifier: "America/New_York"))
        let now = try #require(ISO8601DateFormatter().date(from: "2026-03-10T01:30:00Z"))
        let today = ReferenceDay(now: Instant(now), in: zone).today
        #expect(today == F.day("2026-03-09"))
        let history = F.history(from: "2026-03-05", [10_000, 10_000, 10_000, 10_000, 10_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 10_000), today: today)
        #expect(streaks.currentCount == 5)  // 03-05, 03-06, 03-07, 03-08 (23 h), 03-09
        #expect(streaks.current?.start == F.day("2026-03-05"))
        #expect(streaks.todayGoalMet)
    }

    @Test func aStreakAcrossTheFallBackDayInNewYork() throws {
        // 2026-11-01 has 25 hours. now = 04:30Z on 11-03 is 23:30 EST on 11-02.
        let zone = try #require(ZoneCalendar(identifier: "America/New_York"))
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-03T04:30:00Z"))
        let today = ReferenceDay(now: Instant(now), in: zone).today
        #expect(today == F.day("2026-11-02"))
        let history = F.history(from: "2026-10-30", [10_000, 10_000, 10_000, 4_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 10_000), today: today)
        #expect(streaks.currentCount == 3)  // 10-30, 10-31, 11-01 (25 h); today 11-02 not met yet
        #expect(streaks.current?.end == F.day("2026-11-01"))
    }

    @Test func aStreakAcrossNewYear() {
        let history = F.history(from: "2025-12-29", [9_000, 9_000, 9_000, 9_000, 9_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 9_000), today: F.day("2026-01-03"))
        #expect(streaks.currentCount == 5)
        #expect(streaks.current?.start == F.day("2025-12-29"))
        #expect(streaks.current?.end == F.day("2026-01-02"))
    }

    @Test func aStreakAcrossALeapDay() {
        // 2024-02-27, 02-28, 02-29, 03-01: four days.
        let history = F.history(from: "2024-02-27", [9_000, 9_000, 9_000, 9_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 9_000), today: F.day("2024-03-01"))
        #expect(streaks.currentCount == 4)
    }

    @Test func lateEveningWhereUTCIsAlreadyTomorrow() throws {
        // 05:30Z on 06-15 is 22:30 PDT on 06-14 in Los Angeles: today is 06-14, and the 06-15 record is future.
        let zone = try #require(ZoneCalendar(identifier: "America/Los_Angeles"))
        let now = try #require(ISO8601DateFormatter().date(from: "2026-06-15T05:30:00Z"))
        let today = ReferenceDay(now: Instant(now), in: zone).today
        #expect(today == F.day("2026-06-14"))
        let history = F.history(from: "2026-06-12", [9_000, 9_000, 9_000, 12_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 8_000), today: today)
        #expect(streaks.currentCount == 3)
        #expect(streaks.current?.end == F.day("2026-06-14"))
        #expect(streaks.current?.totalSteps == 27_000)
        #expect(streaks.futureRecordsIgnored == 1)
    }

    @Test func futureRecordsNeitherCountNorBreak() {
        let history = F.history(from: "2026-05-08", [9_000, 9_000, nil, 0, 9_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 8_000), today: F.day("2026-05-10"))
        #expect(streaks.currentCount == 2)
        #expect(streaks.best?.count == 2)
        #expect(streaks.futureRecordsIgnored == 2)
    }

    @Test func aFourHundredDayStreak() {
        // 2025-05-27...2026-06-30: 5 + 214 (Jun–Dec 2025) + 151 (Jan–May 2026) + 30 = 400 days.
        let history = F.history(from: "2025-05-27", Array(repeating: 10_000, count: 400))
        let streaks = Streaks(history: history, goals: GoalLog(constant: 10_000), today: F.day("2026-06-30"))
        #expect(streaks.currentCount == 400)
        #expect(streaks.current?.start == F.day("2025-05-27"))
        #expect(streaks.current?.totalSteps == 4_000_000)
    }

    @Test func noDayEverMetIsNoStreakAtAll() {
        let history = F.history(from: "2026-05-08", [100, 0, 7_000])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 8_000), today: F.day("2026-05-10"))
        #expect(streaks.current == nil)
        #expect(streaks.best == nil)
        #expect(!streaks.bestIsCurrent)
    }

    @Test func tenYearsWithFiftyGoalChanges() throws {
        // 3,650 days of 10,000 steps ending today. Goal change i (0...49) takes effect on day 73·i: 9,000 for even
        // i (met), 11,000 for odd i (not met). The last block (i = 49) is not met, so there is no current streak;
        // the best is block 48, days 3,504...3,576, 73 days of 10,000.
        let today = StepFixtures.day("2026-06-30")
        let first = today.adding(days: -3_649)
        let history = F.history((0..<3_650).map { DailyRecordParams(date: first.adding(days: $0), steps: 10_000) })
        let goals = try GoalLog(
            (0..<50).map {
                GoalChange(effectiveDate: first.adding(days: 73 * $0), goal: $0 % 2 == 0 ? 9_000 : 11_000)
            })
        let streaks: Streaks? = Streaks(history: history, goals: goals, today: today)
        #expect(streaks?.current == nil)
        #expect(streaks?.best?.count == 73)
        #expect(streaks?.best?.start == first.adding(days: 3_504))
        #expect(streaks?.best?.end == first.adding(days: 3_576))
        #expect(streaks?.best?.totalSteps == 730_000)
    }
}
