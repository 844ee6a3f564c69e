import TallyCore
import TallyProtocol

/// Realistic step data for generated requests: weekday/weekend rhythm, streaks of met goals, the occasional lazy
/// zero day and missing day (the phone left at home), and a goal that changes now and then.
public struct StepDataGenerator: Sendable {
    public var generator: SeededGenerator

    public init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// `size.days` of records ending today (about 3 % missing, 2 % zero).
    public mutating func records(endingOn today: LocalDate, size: HistorySize) -> [DailyRecordParams] {
        var records: [DailyRecordParams] = []
        records.reserveCapacity(size.days)
        for offset in stride(from: size.days - 1, through: 0, by: -1) {
            let date = today.adding(days: -offset)
            let roll = Int.random(in: 0..<100, using: &generator)
            if roll < 3 { continue }
            let weekend = date.weekday == .saturday || date.weekday == .sunday
            let steps = roll < 5 ? 0 : generator.bell(mean: weekend ? 6500 : 9500, spread: 5000, in: 0...40_000)
            records.append(DailyRecordParams(
                date: date, steps: steps,
                distanceMeters: (Double(steps) * 0.76).rounded(),
                calories: (Double(steps) * 0.04).rounded(),
                flightsClimbed: steps / 1200))
        }
        return records
    }

    /// A goal log with `size.goalChanges` entries spread over the period.
    public mutating func goalLog(endingOn today: LocalDate, size: HistorySize) -> [GoalChange] {
        let first = today.adding(days: -(size.days - 1))
        let spacing = max(1, size.days / size.goalChanges)
        return (0..<size.goalChanges).map { index in
            GoalChange(
                effectiveDate: first.adding(days: index * spacing),
                goal: 6000 + 500 * Int.random(in: 0...10, using: &generator))
        }
    }
}
