import Foundation
import TallyCore
import TallyProtocol
import Testing

/// The one rule for the future: a timed item is future when its local date is after today, or after `now` when the
/// request gave one; given only `today`, nothing of today is.
@Suite struct ReferenceDayTests {
    typealias F = WorkoutFixtures

    @Test func withNowAnInstantAfterItIsFutureEvenToday() throws {
        let losAngeles = try F.zone("America/Los_Angeles")
        let noon = ReferenceDay(now: try F.instant("2026-06-14T12:00:00-07:00"), in: losAngeles)
        #expect(!noon.isFuture(try F.instant("2026-06-14T11:59:59-07:00"), in: losAngeles))
        #expect(!noon.isFuture(try F.instant("2026-06-14T12:00:00-07:00"), in: losAngeles))
        #expect(noon.isFuture(try F.instant("2026-06-14T12:00:01-07:00"), in: losAngeles))
        #expect(noon.isFuture(try F.instant("2026-06-15T00:00:00-07:00"), in: losAngeles))
    }

    @Test func withTodayOnlyTheNextLocalDateIsFuture() throws {
        let losAngeles = try F.zone("America/Los_Angeles")
        let today = ReferenceDay(today: try F.date("2026-06-14"))
        // 23:59 PDT is 06:59Z the next day in UTC: still today where the user is.
        #expect(!today.isFuture(try F.instant("2026-06-15T06:59:00Z"), in: losAngeles))
        #expect(today.isFuture(try F.instant("2026-06-15T07:00:00Z"), in: losAngeles))
    }

    /// The zone lookup is skipped only where no zone could date the instant after today: 14 hours east of UTC, an
    /// instant of 10:00Z on today's UTC date is already tomorrow.
    @Test func farEastOfUTCTheNextDayComesEarly() throws {
        let kiritimati = try F.zone("Pacific/Kiritimati")
        let today = ReferenceDay(today: try F.date("2026-06-14"))
        #expect(!today.isFuture(try F.instant("2026-06-14T09:59:00Z"), in: kiritimati))
        #expect(today.isFuture(try F.instant("2026-06-14T10:00:00Z"), in: kiritimati))
        let date = kiritimati.localDate(of: try F.instant("2026-06-14T10:00:00Z"))
        #expect(today.isFuture(try F.instant("2026-06-14T10:00:00Z"), on: date))
    }

    @Test func aTimelineLeavesTheFutureOutAndCountsIt() throws {
        let utc = try F.zone("UTC")
        let timeline = ActivityTimeline(
            workouts: [
                try F.workout("past", at: "2026-06-14T08:00:00Z"), try F.workout("late", at: "2026-06-14T20:00:00Z"),
            ],
            stretches: [try F.stretch("tomorrow", at: "2026-06-15T08:00:00Z")],
            meditations: [try F.meditation("now", at: "2026-06-14T12:00:00Z")],
            calendar: utc, reference: ReferenceDay(now: try F.instant("2026-06-14T12:00:00Z"), in: utc))
        #expect(timeline.entries.map(\.activity.id) == ["past", "now"])
        #expect(timeline.futureEntriesIgnored == 2)
    }
}
