import Foundation
import TallyCalendar
import TallyProtocol

/// The daily chart: the elapsed hours of one local day (24, or 23 and 25 on DST days) with the samples that
/// started in each.
///
/// An hour without samples inside a day that has samples is 0; a day without any sample has no data in every
/// hour (`nil`), not a flat zero line; hours after "now" are future and hold nothing. A date the zone skipped
/// (Pacific/Apia, 2011-12-30) has no hours at all: no bucket, no data, every sample outside it.
package struct HourlySeries: Sendable, Hashable {
    /// One hour bucket.
    package struct Bucket: Sendable, Hashable {
        package let hour: LocalHour
        /// `nil` when the day has no samples or the hour is in the future.
        package let totals: StepTotals?
        package let isFuture: Bool
    }

    package let date: LocalDate
    package let buckets: [Bucket]
    /// Whether any sample fell into the day.
    package let hasData: Bool
    /// Samples outside the day, or starting after `now`: left out of every bucket.
    package let samplesIgnored: Int

    /// Buckets `samples` (any order) into the hours of `date`.
    /// - Parameter now: the request's instant, if it gave one: hours starting after it are future.
    package init(date: LocalDate, samples: [StepSampleParams], calendar: ZoneCalendar, now: Instant?) {
        let hours = calendar.hours(of: date)
        // The day's span rather than its first and last bucket: a skipped date's day is empty and has neither.
        let day = calendar.interval(of: date)
        let (dayStart, dayEnd) = (day.lowerBound, day.upperBound)
        var sums = [StepTotals](repeating: StepTotals(), count: hours.count)
        var ignored = 0
        var hasData = false
        for sample in samples {
            let start = sample.start.instant
            guard start >= dayStart, start < dayEnd, now.map({ start <= $0 }) ?? true else {
                ignored += 1
                continue
            }
            // Buckets are consecutive whole hours from the day's start (only the last may be shorter); the day
            // holds the sample, so it has at least one bucket.
            let index = min(Int((start.secondsSince1970 - dayStart.secondsSince1970) / 3600), hours.count - 1)
            sums[index].add(
                steps: sample.steps, distanceMeters: sample.distanceMeters, calories: sample.calories,
                flightsClimbed: sample.flightsClimbed)
            hasData = true
        }
        self.date = date
        self.hasData = hasData
        self.samplesIgnored = ignored
        self.buckets = zip(hours, sums).map { hour, sum in
            let isFuture = now.map { hour.start > $0 } ?? false
            return Bucket(hour: hour, totals: hasData && !isFuture ? sum : nil, isFuture: isFuture)
        }
    }

    /// Sums over every bucket.
    package var totals: StepTotals {
        var totals = StepTotals()
        for bucket in buckets { if let sum = bucket.totals { totals.add(sum) } }
        return totals
    }
}
