import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

@Suite struct ActivityMonthTests {
    typealias F = WorkoutFixtures

    /// UTC history: a workout in January, two workouts on 03-02, a stretch on 03-10, a workout on 03-15 and a
    /// meditation on 04-05. Today is 2026-03-20.
    func history() throws -> ActivityTimeline {
        ActivityTimeline(
            workouts: [
                try F.workout("jan", at: "2026-01-20T10:00:00Z"),
                try F.workout("m2-evening", at: "2026-03-02T19:00:00Z"),
                try F.workout("m2-morning", at: "2026-03-02T06:30:00Z"),
                try F.workout("m15", at: "2026-03-15T09:00:00Z"),
            ],
            stretches: [try F.stretch("s10", at: "2026-03-10T08:00:00Z")],
            meditations: [try F.meditation("apr", at: "2026-04-05T21:00:00Z")],
            calendar: try F.zone("UTC"))
    }

    let today = LocalDate(year: 2026, month: 3, day: 20)!
    let march = YearMonth(year: 2026, month: 3)!
    let all = Set(ActivityType.allCases)

    @Test func marchWithEveryType() throws {
        let month = ActivityMonth(timeline: try history(), month: march, types: all, today: today)
        #expect(month.days.map(\.date.description) == ["2026-03-02", "2026-03-10", "2026-03-15"])
        #expect(month.days[0].entries.map(\.activity.id) == ["m2-morning", "m2-evening"])
        #expect(month.days[1].entries.map(\.type) == [.stretch])
        #expect(month.hasEarlier)  // the January workout
        #expect(month.hasLater)  // the April meditation
        #expect(!month.isEmpty)
    }

    @Test func filterByType() throws {
        let stretches = ActivityMonth(timeline: try history(), month: march, types: [.stretch], today: today)
        #expect(stretches.days.map(\.date.description) == ["2026-03-10"])
        // No stretch before or after March, and March is the current month: nowhere to page.
        #expect(!stretches.hasEarlier)
        #expect(!stretches.hasLater)

        let workouts = ActivityMonth(timeline: try history(), month: march, types: [.workout], today: today)
        #expect(workouts.days.map(\.date.description) == ["2026-03-02", "2026-03-15"])
        #expect(workouts.hasEarlier)
        #expect(!workouts.hasLater)  // the April activity is a meditation
    }

    @Test func aMonthWithNothingOfTheChosenTypesIsEmpty() throws {
        let meditations = ActivityMonth(timeline: try history(), month: march, types: [.meditation], today: today)
        #expect(meditations.isEmpty)
        #expect(meditations.days.isEmpty)
        #expect(!meditations.hasEarlier)
        #expect(meditations.hasLater)

        let february = ActivityMonth(
            timeline: try history(), month: YearMonth(year: 2026, month: 2)!, types: all, today: today)
        #expect(february.isEmpty)
        #expect(february.hasEarlier)
        #expect(february.hasLater)
    }

    @Test func noHistoryAtAll() throws {
        let nothing = ActivityTimeline(workouts: [], calendar: try F.zone("UTC"))
        let current = ActivityMonth(timeline: nothing, month: march, types: all, today: today)
        #expect(current.isEmpty)
        #expect(!current.hasEarlier)
        #expect(!current.hasLater)
        // From an earlier month the way back to the current month stays open; from a later one likewise.
        let december = ActivityMonth(
            timeline: nothing, month: YearMonth(year: 2025, month: 12)!, types: all, today: today)
        #expect(!december.hasEarlier)
        #expect(december.hasLater)
        let may = ActivityMonth(timeline: nothing, month: YearMonth(year: 2026, month: 5)!, types: all, today: today)
        #expect(may.hasEarlier)
        #expect(!may.hasLater)
    }

    @Test func rangeEndsAtTheFirstAndLastMonthsWithHistory() throws {
        let january = ActivityMonth(
            timeline: try history(), month: YearMonth(year: 2026, month: 1)!, types: all, today: today)
        #expect(!january.hasEarlier)
        #expect(january.hasLater)
        let april = ActivityMonth(
            timeline: try history(), month: YearMonth(year: 2026, month: 4)!, types: all, today: today)
        #expect(april.hasEarlier)
        #expect(!april.hasLater)
        #expect(april.days.map(\.date.description) == ["2026-04-05"])
    }
}
