import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol

/// Realistic step data for generated requests: weekday/weekend rhythm, streaks of met goals, the occasional lazy
/// zero day and missing day (the phone left at home), and a goal that changes now and then.
package struct StepDataGenerator: Sendable {
    package var generator: SeededGenerator

    package init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// `size.days` of records ending today (about 3 % missing, 2 % zero).
    package mutating func records(endingOn today: LocalDate, size: HistorySize) -> [DailyRecordParams] {
        var records: [DailyRecordParams] = []
        records.reserveCapacity(size.days)
        for offset in stride(from: size.days - 1, through: 0, by: -1) {
            let date = today.adding(days: -offset)
            let roll = Int.random(in: 0..<100, using: &generator)
            if roll < 3 { continue }
            let weekend = date.weekday == .saturday || date.weekday == .sunday
            let steps = roll < 5 ? 0 : generator.bell(mean: weekend ? 6500 : 9500, spread: 5000, in: 0...40_000)
            records.append(
                DailyRecordParams(
                    date: date, steps: steps,
                    distanceMeters: (Double(steps) * 0.76).rounded(),
                    calories: (Double(steps) * 0.04).rounded(),
                    flightsClimbed: steps / 1200))
        }
        return records
    }

    /// A goal log with `size.goalChanges` entries spread over the period.
    package mutating func goalLog(endingOn today: LocalDate, size: HistorySize) -> [GoalChange] {
        let first = today.adding(days: -(size.days - 1))
        let spacing = max(1, size.days / size.goalChanges)
        return (0..<size.goalChanges).map { index in
            GoalChange(
                effectiveDate: first.adding(days: index * spacing),
                goal: 6000 + 500 * Int.random(in: 0...10, using: &generator))
        }
    }

    /// Timed samples for the dashboard's daily chart: several per waking hour of `date` (07:00–22:59 local),
    /// each starting at a random minute, as a phone's pedometer reports them.
    package mutating func samples(on date: LocalDate, zone: ZoneCalendar) -> [StepSampleParams] {
        var samples: [StepSampleParams] = []
        for hour in zone.hours(of: date) where (7...22).contains(hour.hour) {
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let start = hour.start.advanced(by: .seconds(Int.random(in: 0..<3600, using: &generator)))
                guard start < hour.end else { continue }
                let steps = generator.bell(mean: 300, spread: 250, in: 0...3000)
                samples.append(
                    StepSampleParams(
                        start: Timestamp(start, offset: hour.utcOffset), steps: steps,
                        distanceMeters: (Double(steps) * 0.76).rounded(), calories: (Double(steps) * 0.04).rounded()))
            }
        }
        return samples
    }
}
