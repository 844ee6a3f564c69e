import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct WorkoutDayDetailTests {
    typealias F = WorkoutFixtures

    /// An 8-week plan that starts on Sunday 2026-03-01, the Sunday before New York springs forward (03-08).
    /// A reference after every workout of these tests: nothing is future.
    static let later = ReferenceDay(today: LocalDate(year: 2026, month: 12, day: 31)!)

    let plan = PlanParams(id: "ppl", name: "PPL", startDate: LocalDate(year: 2026, month: 3, day: 1)!, weeks: 8)

    @Test func selectsTheLocalDayInCompletionOrder() throws {
        let workouts = [
            try F.workout("late", at: "2026-06-15T06:30:00Z", template: "legs"),  // 23:30 PDT on 06-14
            try F.workout("next-day", at: "2026-06-15T16:00:00Z", template: "legs"),  // 09:00 PDT on 06-15
            try F.workout("early", at: "2026-06-14T14:00:00Z", template: "push"),  // 07:00 PDT on 06-14
            try F.workout("day-before", at: "2026-06-14T06:00:00Z", template: "push"),  // 23:00 PDT on 06-13
            try F.workout("plain", at: "2026-06-14T20:00:00Z"),  // 13:00 PDT on 06-14
        ]
        let detail = WorkoutDayDetail(
            workouts: workouts, date: try F.date("2026-06-14"), unit: .kilogram,
            calendar: try F.zone("America/Los_Angeles"), reference: Self.later)
        #expect(detail.items.map(\.workout.id) == ["early", "plain", "late"])
        // Usage counts the whole history: legs twice, push twice; "plain" has no template.
        #expect(detail.items.map(\.templateTimesLogged) == [2, nil, 2])
    }

    @Test func planWeekAcrossTheSpringForward() throws {
        let workouts = [
            try F.workout("sat", at: "2026-03-07T23:30:00-05:00", plan: plan),  // day 6 → week 1
            try F.workout("sun", at: "2026-03-08T09:00:00-04:00", plan: plan),  // day 7 → week 2
            // 00:30 EDT on 03-15 is only 13 days 23.5 hours after the start's midnight (one hour was skipped),
            // yet 14 calendar days: week 3.
            try F.workout("two-weeks", at: "2026-03-15T00:30:00-04:00", plan: plan),
        ]
        let newYork = try F.zone("America/New_York")
        func week(on date: String) throws -> Int? {
            let detail = WorkoutDayDetail(
                workouts: workouts, date: try F.date(date), unit: .kilogram, calendar: newYork, reference: Self.later)
            return try #require(detail.items.first).planWeek
        }
        #expect(try week(on: "2026-03-07") == 1)
        #expect(try week(on: "2026-03-08") == 2)
        #expect(try week(on: "2026-03-15") == 3)
    }

    @Test func planWeekCappedAndAbsentBeforeTheStart() throws {
        let short = PlanParams(startDate: try F.date("2026-03-01"), weeks: 4)
        let workouts = [
            try F.workout("late", at: "2026-05-01T10:00:00Z", plan: short),  // day 61 → week 9 → capped at 4
            try F.workout("early", at: "2026-02-27T10:00:00Z", plan: short),  // before the start
            try F.workout("none", at: "2026-02-27T11:00:00Z"),
        ]
        let utc = try F.zone("UTC")
        let may = WorkoutDayDetail(
            workouts: workouts, date: try F.date("2026-05-01"), unit: .kilogram, calendar: utc, reference: Self.later)
        #expect(may.items.map(\.planWeek) == [4])
        let february = WorkoutDayDetail(
            workouts: workouts, date: try F.date("2026-02-27"), unit: .kilogram, calendar: utc, reference: Self.later)
        #expect(february.items.map(\.workout.id) == ["early", "none"])
        #expect(february.items.map(\.planWeek) == [nil, nil])
    }

    @Test func volumesInTheUnitAsked() throws {
        let workouts = [try F.mixedWorkout(at: "2026-03-10T18:00:00Z")]
        let pounds = WorkoutDayDetail(
            workouts: workouts, date: try F.date("2026-03-10"), unit: .pound, calendar: try F.zone("UTC"),
            reference: Self.later)
        #expect(pounds.unit == .pound)
        #expect(pounds.items[0].volume.exercises[1].volume == 1150)
        #expect(abs(pounds.items[0].volume.total - 4890.5810998) < 1e-6)
    }

    @Test func aDayWithoutWorkouts() throws {
        let detail = WorkoutDayDetail(
            workouts: [try F.workout("w", at: "2026-03-10T18:00:00Z", template: "push")],
            date: try F.date("2026-03-11"),
            unit: .kilogram, calendar: try F.zone("UTC"), reference: Self.later)
        #expect(detail.items.isEmpty)
    }

    /// Today 06-14 in Los Angeles at 12:00 (19:00Z): a workout later today, or on a later date, has not happened
    /// yet. It is not on its day and its template is not "logged" for it.
    @Test func futureWorkoutsAreNeitherOnTheirDayNorLogged() throws {
        let workouts = [
            try F.workout("morning", at: "2026-06-14T15:00:00Z", template: "legs"),  // 08:00 PDT on 06-14
            try F.workout("evening", at: "2026-06-15T01:00:00Z", template: "legs"),  // 18:00 PDT on 06-14
            try F.workout("tomorrow", at: "2026-06-15T16:00:00Z", template: "legs"),  // 06-15
        ]
        let losAngeles = try F.zone("America/Los_Angeles")
        let noon = ReferenceDay(now: try F.instant("2026-06-14T19:00:00Z"), in: losAngeles)
        let atNoon = WorkoutDayDetail(
            workouts: workouts, date: try F.date("2026-06-14"), unit: .kilogram, calendar: losAngeles,
            reference: noon)
        #expect(atNoon.items.map(\.workout.id) == ["morning"])
        #expect(atNoon.items.map(\.templateTimesLogged) == [1])
        // Given only today's date, the request names a day, not a moment: the evening workout has happened.
        let today = ReferenceDay(today: try F.date("2026-06-14"))
        let allDay = WorkoutDayDetail(
            workouts: workouts, date: try F.date("2026-06-14"), unit: .kilogram, calendar: losAngeles,
            reference: today)
        #expect(allDay.items.map(\.workout.id) == ["morning", "evening"])
        #expect(allDay.items.map(\.templateTimesLogged) == [2, 2])
    }
}
