import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

/// Pacific/Apia went from 2011-12-29 to 2011-12-31 (it crossed the date line) and Pacific/Kwajalein skipped
/// 1993-08-21. Nobody lived those dates: without a record they neither break a streak nor count in one; a record
/// dated on one is a day like any other.
@Suite struct SkippedDateStreakTests {
    typealias F = StepFixtures
    let apia = StreakDays(calendar: ZoneCalendar(identifier: "Pacific/Apia")!)

    @Test func theZoneSkippedTheDates() {
        #expect(ZoneCalendar(identifier: "Pacific/Apia")!.skipped(F.day("2011-12-30")))
        #expect(!ZoneCalendar(identifier: "Pacific/Apia")!.skipped(F.day("2011-12-29")))
        #expect(ZoneCalendar(identifier: "Pacific/Kwajalein")!.skipped(F.day("1993-08-21")))
        #expect(!ZoneCalendar(identifier: "Europe/Berlin")!.skipped(F.day("2026-03-29")), "a 23-hour day is lived")
    }

    @Test func aStepStreakRunsAcrossTheSkippedDate() {
        let history = F.history([("2011-12-28", 9_000), ("2011-12-29", 9_500), ("2011-12-31", 10_000)])
        let goals = GoalLog(constant: 8_000)
        let streaks = Streaks(history: history, goals: goals, today: F.day("2011-12-31"), days: apia)
        #expect(streaks.currentCount == 3, "28, 29 and 31 December: three lived days in a row")
        #expect(streaks.current?.start == F.day("2011-12-28"))
        #expect(streaks.current?.totalSteps == 28_500)
        #expect(streaks.best?.count == 3)
        // In a zone that lived 30 December, the missing record breaks the streak.
        let elsewhere = Streaks(history: history, goals: goals, today: F.day("2011-12-31"))
        #expect(elsewhere.currentCount == 1)
    }

    @Test func theDayBeforeTheSkippedDateIsYesterday() {
        // Today (31 December) has no record yet: the streak through 29 December is still current.
        let history = F.history([("2011-12-28", 9_000), ("2011-12-29", 9_500)])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 8_000), today: F.day("2011-12-31"), days: apia)
        #expect(streaks.currentCount == 2)
        #expect(streaks.current?.end == F.day("2011-12-29"))
        #expect(Streaks(history: history, goals: GoalLog(constant: 8_000), today: F.day("2011-12-31")).current == nil)
    }

    @Test func aWorkoutStreakRunsAcrossTheSkippedDate() throws {
        let dates = try ["2011-12-28", "2011-12-29", "2011-12-31"].map { try LocalDate(parsing: $0) }
        let streak = WorkoutStreak(workoutDates: dates, today: F.day("2011-12-31"), lived: apia)
        #expect(streak.days == 3 && streak.includesToday)
        #expect(streak.startDate == F.day("2011-12-28"))
        let yesterdayOnly = WorkoutStreak(workoutDates: dates.dropLast(), today: F.day("2011-12-31"), lived: apia)
        #expect(yesterdayOnly.days == 2 && !yesterdayOnly.includesToday)
        #expect(WorkoutStreak(workoutDates: dates, today: F.day("2011-12-31")).days == 1)
    }

    @Test func aRecordOnTheSkippedDateCountsAndKeepsTheStreakCurrent() {
        // Today (31 December) has no record yet; the run ends on the skipped 30th, after yesterday (the 29th).
        let history = F.history([("2011-12-28", 9_000), ("2011-12-29", 9_000), ("2011-12-30", 9_000)])
        let goals = GoalLog(constant: 8_000)
        let streaks = Streaks(history: history, goals: goals, today: F.day("2011-12-31"), days: apia)
        #expect(streaks.currentCount == 3, "adding a day that meets the goal cannot wipe the streak out")
        #expect(streaks.current?.end == F.day("2011-12-30"))
        #expect(streaks.bestIsCurrent)
        // Today met extends it.
        let withToday = F.history(
            [("2011-12-28", 9_000), ("2011-12-29", 9_000), ("2011-12-30", 9_000), ("2011-12-31", 9_000)])
        #expect(Streaks(history: withToday, goals: goals, today: F.day("2011-12-31"), days: apia).currentCount == 4)
        // A single record on the skipped date is a current streak of one day, in Apia and in Kwajalein.
        let single = Streaks(
            history: F.history([("2011-12-30", 9_000)]), goals: goals, today: F.day("2011-12-31"), days: apia)
        #expect(single.currentCount == 1)
        let kwajalein = StreakDays(calendar: ZoneCalendar(identifier: "Pacific/Kwajalein")!)
        let alone = Streaks(
            history: F.history([("1993-08-21", 9_000)]), goals: goals, today: F.day("1993-08-22"), days: kwajalein)
        #expect(alone.currentCount == 1)
        // A run that ended before yesterday is not current, skipped date or not.
        let old = Streaks(
            history: F.history([("2011-12-27", 9_000), ("2011-12-28", 9_000)]), goals: goals,
            today: F.day("2011-12-31"), days: apia)
        #expect(old.current == nil)
    }

    @Test func aRecordBelowTheGoalOnTheSkippedDateBreaksTheStreak() {
        // A day like any other: a recorded day below its goal ends the run before it.
        let history = F.history([("2011-12-28", 9_000), ("2011-12-29", 9_000), ("2011-12-30", 100)])
        let streaks = Streaks(
            history: history, goals: GoalLog(constant: 8_000), today: F.day("2011-12-31"), days: apia)
        #expect(streaks.current == nil)
        #expect(streaks.best?.count == 2)
    }

    @Test func aRealGapStillBreaksTheStreak() {
        // A missing 29 December is a missing day in Apia too.
        let history = F.history([("2011-12-28", 9_000), ("2011-12-31", 10_000)])
        let streaks = Streaks(history: history, goals: GoalLog(constant: 8_000), today: F.day("2011-12-31"), days: apia)
        #expect(streaks.currentCount == 1)
    }
}
