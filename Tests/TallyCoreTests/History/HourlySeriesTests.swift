import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

/// The daily chart's hour buckets: 23 and 25 on DST days in New York and Berlin, samples bucketed in local hours,
/// no data vs zero, future hours.
@Suite struct HourlySeriesTests {
    typealias F = StepFixtures

    func zone(_ identifier: String) throws -> ZoneCalendar { try #require(ZoneCalendar(identifier: identifier)) }

    func instant(_ text: String) throws -> Instant { try RFC3339.parse(text).instant }

    func sample(_ start: String, _ steps: Int) throws -> StepSampleParams {
        StepSampleParams(start: try Timestamp(parsing: start), steps: steps)
    }

    @Test(arguments: [
        ("America/New_York", "2026-03-08", 23), ("America/New_York", "2026-11-01", 25),
        ("Europe/Berlin", "2026-03-29", 23), ("Europe/Berlin", "2026-10-25", 25),
        ("America/New_York", "2026-03-09", 24), ("Europe/Berlin", "2024-02-29", 24),
    ])
    func bucketCount(zone identifier: String, date: String, hours: Int) throws {
        let series = HourlySeries(date: F.day(date), samples: [], calendar: try zone(identifier), now: nil)
        #expect(series.buckets.count == hours)
    }

    @Test func springForwardInNewYorkSkipsTwoOClock() throws {
        let series = HourlySeries(
            date: F.day("2026-03-08"), samples: [try sample("2026-03-08T03:15:00-04:00", 300)],
            calendar: try zone("America/New_York"), now: nil)
        #expect(series.buckets.map(\.hour.hour) == [0, 1] + Array(3...23))
        #expect(series.buckets[2].hour.label == "2026-03-08T03:00:00-04:00")
        #expect(series.buckets[2].totals?.steps == 300)
        #expect(series.buckets[1].totals?.steps == 0)
    }

    @Test func fallBackInNewYorkKeepsBothOneOClocksApart() throws {
        let series = HourlySeries(
            date: F.day("2026-11-01"),
            samples: [try sample("2026-11-01T01:30:00-04:00", 100), try sample("2026-11-01T01:30:00-05:00", 250)],
            calendar: try zone("America/New_York"), now: nil)
        #expect(series.buckets.map(\.hour.hour) == [0, 1, 1] + Array(2...23))
        #expect(series.buckets[1].hour.label == "2026-11-01T01:00:00-04:00")
        #expect(series.buckets[2].hour.label == "2026-11-01T01:00:00-05:00")
        #expect(series.buckets[1].totals?.steps == 100)
        #expect(series.buckets[2].totals?.steps == 250)
        #expect(series.totals.steps == 350)
    }

    @Test func berlinSpringForwardAndFallBack() throws {
        let spring = HourlySeries(
            date: F.day("2026-03-29"), samples: [try sample("2026-03-29T03:00:00+02:00", 40)],
            calendar: try zone("Europe/Berlin"), now: nil)
        #expect(spring.buckets.map(\.hour.hour) == [0, 1] + Array(3...23))
        #expect(spring.buckets[2].totals?.steps == 40)
        let fall = HourlySeries(
            date: F.day("2026-10-25"), samples: [try sample("2026-10-25T02:59:59+01:00", 7)],
            calendar: try zone("Europe/Berlin"), now: nil)
        #expect(fall.buckets.map(\.hour.hour) == [0, 1, 2, 2] + Array(3...23))
        #expect(fall.buckets[3].totals?.steps == 7)
    }

    @Test func lateEveningSampleStaysOnItsLocalDay() throws {
        // 23:30 in Los Angeles is 06:30 the next day in UTC; it belongs to the local hour 23.
        let series = HourlySeries(
            date: F.day("2026-06-14"), samples: [try sample("2026-06-15T06:30:00Z", 900)],
            calendar: try zone("America/Los_Angeles"), now: nil)
        #expect(series.buckets.last?.hour.hour == 23)
        #expect(series.buckets.last?.totals?.steps == 900)
        #expect(series.samplesIgnored == 0)
    }

    @Test func aDayWithoutSamplesHasNoDataNotZero() throws {
        let series = HourlySeries(date: F.day("2026-06-14"), samples: [], calendar: try zone("Europe/Berlin"), now: nil)
        #expect(!series.hasData)
        #expect(series.buckets.allSatisfy { $0.totals == nil })
        #expect(series.totals.count == 0)
    }

    @Test func samplesInOneHourAreSummedWithTheirMeasures() throws {
        let samples = [
            StepSampleParams(start: try Timestamp(parsing: "2026-06-14T08:05:00+02:00"), steps: 100, distanceMeters: 70, calories: 4),
            StepSampleParams(start: try Timestamp(parsing: "2026-06-14T08:55:00+02:00"), steps: 50, flightsClimbed: 2),
        ]
        let series = HourlySeries(
            date: F.day("2026-06-14"), samples: samples, calendar: try zone("Europe/Berlin"), now: nil)
        let eight = try #require(series.buckets[8].totals)
        #expect(eight.steps == 150)
        #expect(eight.distanceMeters == 70)
        #expect(eight.calories == 4)
        #expect(eight.flightsClimbed == 2)
        #expect(eight.count == 2)
    }

    @Test func hoursAfterNowAreFutureAndLateSamplesAreIgnored() throws {
        let samples = [
            try sample("2026-06-14T09:10:00+02:00", 10), try sample("2026-06-14T15:00:00+02:00", 20),
            try sample("2026-06-13T23:59:00+02:00", 30),
        ]
        let series = HourlySeries(
            date: F.day("2026-06-14"), samples: samples, calendar: try zone("Europe/Berlin"),
            now: try instant("2026-06-14T12:20:00+02:00"))
        #expect(series.buckets.filter(\.isFuture).map(\.hour.hour) == Array(13...23))
        #expect(series.buckets[12].totals?.steps == 0)
        #expect(series.buckets[13].totals == nil)
        #expect(series.buckets[9].totals?.steps == 10)
        #expect(series.samplesIgnored == 2)
        #expect(series.totals.steps == 10)
    }

    /// The date Samoa skipped: no hours, so no data, and the samples on either side of it are outside it.
    @Test func skippedDateHasNoHours() throws {
        let samples = [try sample("2011-12-29T23:59:00-10:00", 5), try sample("2011-12-31T00:00:00+14:00", 6)]
        let series = HourlySeries(
            date: F.day("2011-12-30"), samples: samples, calendar: try zone("Pacific/Apia"),
            now: try instant("2011-12-30T10:05:19Z"))
        #expect(series.buckets.isEmpty)
        #expect(!series.hasData)
        #expect(series.samplesIgnored == 2)
        #expect(series.totals == StepTotals())
    }

    /// Tehran's local mean time (+03:25:44) has seconds: the buckets are written in UTC, each at its exact instant.
    @Test func offsetWithSecondsWritesBucketsInUTC() throws {
        let series = HourlySeries(date: F.day("1916-06-01"), samples: [], calendar: try zone("Asia/Tehran"), now: nil)
        #expect(series.buckets.count == 24)
        #expect(series.buckets[0].hour.utcOffset == 12_344)
        #expect(series.buckets[0].hour.label == "1916-05-31T20:34:16Z")
        #expect(series.buckets[0].hour.hour == 0)
    }
}
