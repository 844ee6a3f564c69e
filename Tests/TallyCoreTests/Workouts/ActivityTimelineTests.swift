import Foundation
import TallyCore
import TallyProtocol
import Testing

@Suite struct ActivityTimelineTests {
    typealias F = WorkoutFixtures

    @Test func lateEveningInLosAngelesLandsOnTheLocalDate() throws {
        // 23:30 on 2026-06-14 in Los Angeles (PDT, −07:00) is 06:30 UTC on 2026-06-15.
        let workouts = [try F.workout("w1", at: "2026-06-15T06:30:00Z")]
        let losAngeles = ActivityTimeline(workouts: workouts, calendar: try F.zone("America/Los_Angeles"))
        #expect(losAngeles.entries.map(\.date) == [try F.date("2026-06-14")])
        #expect(losAngeles.entries(on: try F.date("2026-06-15")).isEmpty)
        let utc = ActivityTimeline(workouts: workouts, calendar: try F.zone("UTC"))
        #expect(utc.entries.map(\.date) == [try F.date("2026-06-15")])
    }

    @Test func fixedOffsetDoesNotFollowDaylightSaving() throws {
        // 04:30 UTC on 2026-07-01: 00:30 EDT in New York (07-01), but 23:30 at a fixed −05:00 (06-30).
        let workouts = [try F.workout("w1", at: "2026-07-01T04:30:00Z")]
        let newYork = ActivityTimeline(workouts: workouts, calendar: try F.zone("America/New_York"))
        let fixed = ActivityTimeline(workouts: workouts, calendar: try #require(ZoneCalendar(utcOffsetMinutes: -300)))
        #expect(newYork.entries.map(\.date) == [try F.date("2026-07-01")])
        #expect(fixed.entries.map(\.date) == [try F.date("2026-06-30")])
    }

    @Test func threeActivitiesOfOneDayInCompletionOrder() throws {
        // New York, 2026-03-10 (EDT, −04:00): stretch 07:15, meditation 12:00, workout 18:40; listed out of order.
        let timeline = ActivityTimeline(
            workouts: [try F.workout("w", at: "2026-03-10T22:40:00Z")],
            stretches: [try F.stretch("s", at: "2026-03-10T07:15:00-04:00")],
            meditations: [try F.meditation("m", at: "2026-03-10T16:00:00Z")],
            calendar: try F.zone("America/New_York"))
        let day = timeline.entries(on: try F.date("2026-03-10"))
        #expect(day.map(\.type) == [.stretch, .meditation, .workout])
        #expect(day.map(\.activity.id) == ["s", "m", "w"])
    }

    @Test func aFallBackNightIsOrderedByInstantNotWallClock() throws {
        // New York falls back on 2026-11-01: 01:30 EDT (05:30 UTC) comes before 01:10 EST (06:10 UTC).
        let timeline = ActivityTimeline(
            workouts: [try F.workout("w", at: "2026-11-01T01:10:00-05:00")],
            stretches: [try F.stretch("s", at: "2026-11-01T01:30:00-04:00")],
            calendar: try F.zone("America/New_York"))
        #expect(timeline.entries(on: try F.date("2026-11-01")).map(\.activity.id) == ["s", "w"])
    }

    @Test func tiesGoWorkoutStretchMeditationThenListOrder() throws {
        let same = "2026-03-10T12:00:00Z"
        let timeline = ActivityTimeline(
            workouts: [try F.workout("w-b", at: same), try F.workout("w-a", at: same)],
            stretches: [try F.stretch("s", at: same)],
            meditations: [try F.meditation("m", at: same), try F.meditation("early", at: "2026-03-10T11:59:59Z")],
            calendar: try F.zone("UTC"))
        #expect(timeline.entries.map(\.activity.id) == ["early", "w-b", "w-a", "s", "m"])
    }

    @Test func entriesInARangeAreSelectedByLocalDate() throws {
        let timeline = ActivityTimeline(
            workouts: [
                try F.workout("feb", at: "2026-02-28T23:59:59+01:00"),
                try F.workout("mar1", at: "2026-03-01T00:00:00+01:00"),
                try F.workout("mar31", at: "2026-03-31T23:00:00+02:00"),
                try F.workout("apr", at: "2026-04-01T00:00:00+02:00"),
            ],
            calendar: try F.zone("Europe/Berlin"))
        let march = timeline.entries(in: try F.date("2026-03-01")...F.date("2026-03-31"))
        #expect(march.map(\.activity.id) == ["mar1", "mar31"])
        #expect(timeline.entries(in: try F.date("2026-05-01")...F.date("2026-05-31")).isEmpty)
    }
}
