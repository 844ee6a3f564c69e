import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct WorkoutStreakTests {
    let today = LocalDate(year: 2026, month: 3, day: 20)!

    func streak(_ dates: [String]) throws -> WorkoutStreak {
        WorkoutStreak(workoutDates: try dates.map { try LocalDate(parsing: $0) }, today: today)
    }

    @Test func countsBackFromYesterdayWhileTodayIsOpen() throws {
        let streak = try streak(["2026-03-17", "2026-03-18", "2026-03-19"])
        #expect(streak.days == 3)
        #expect(streak.startDate?.description == "2026-03-17")
        #expect(streak.endDate?.description == "2026-03-19")
        #expect(!streak.includesToday)
    }

    @Test func todayCountsOnceItHasAWorkout() throws {
        let streak = try streak(["2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20"])
        #expect(streak.days == 4)
        #expect(streak.startDate?.description == "2026-03-17")
        #expect(streak.endDate?.description == "2026-03-20")
        #expect(streak.includesToday)

        let onlyToday = try self.streak(["2026-03-20", "2026-03-18"])
        #expect(onlyToday.days == 1)
        #expect(onlyToday.startDate?.description == "2026-03-20")
    }

    @Test func aMissedYesterdayEndsTheStreak() throws {
        let streak = try streak(["2026-03-16", "2026-03-17", "2026-03-18"])
        #expect(streak.days == 0)
        #expect(streak.startDate == nil)
        #expect(streak.endDate == nil)
        #expect(!streak.includesToday)
        #expect(try self.streak([]).days == 0)
    }

    @Test func aGapBreaksTheRun() throws {
        #expect(try streak(["2026-03-15", "2026-03-16", "2026-03-18", "2026-03-19"]).days == 2)
    }

    @Test func repeatsCountOnceAndFutureDaysNever() throws {
        let streak = try streak(["2026-03-19", "2026-03-19", "2026-03-18", "2026-03-21", "2026-03-22"])
        #expect(streak.days == 2)
        #expect(streak.startDate?.description == "2026-03-18")
        #expect(!streak.includesToday)
    }

    @Test func onlyWorkoutsOfATimelineCount() throws {
        let timeline = ActivityTimeline(
            workouts: [try WorkoutFixtures.workout("w", at: "2026-03-19T10:00:00Z")],
            stretches: [try WorkoutFixtures.stretch("s", at: "2026-03-18T10:00:00Z")],
            meditations: [try WorkoutFixtures.meditation("m", at: "2026-03-20T10:00:00Z")],
            calendar: try WorkoutFixtures.zone("UTC"))
        let streak = WorkoutStreak(timeline: timeline, today: today)
        #expect(streak.days == 1)
        #expect(streak.startDate?.description == "2026-03-19")
        #expect(!streak.includesToday)
    }
}
