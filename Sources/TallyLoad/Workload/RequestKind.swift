import Foundation
import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol

/// One kind of request the load tool can generate: a method and, for methods that take history, its size.
package struct RequestKind: Sendable, Hashable, CustomStringConvertible {
    package let method: String
    package let size: HistorySize?

    /// Methods with a generator, and whether they take a size.
    package static let generators: [String: Bool] = [
        SystemPing.name: false,
        HistoryMonths.name: true,
        HistoryMonth.name: true,
        HistoryDashboard.name: true,
        StreakSummary.name: true,
        WorkoutCalendar.name: true,
        WorkoutDay.name: true,
        WorkoutDetail.name: true,
        SystemDescribe.name: false,
    ]

    /// Parses `method` or `method@size` (`streak.summary@1y`).
    package init(parsing text: String) throws {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        guard let method = parts.first, let takesSize = Self.generators[method] else {
            throw WorkloadError(
                "unknown method '\(text)'; known: \(Self.generators.keys.sorted().joined(separator: ", "))")
        }
        self.method = method
        if parts.count == 2 {
            guard takesSize, let size = HistorySize(rawValue: parts[1]) else {
                throw WorkloadError(
                    "'\(text)': sizes are \(HistorySize.allCases.map(\.rawValue).joined(separator: ", ")) for methods with history"
                )
            }
            self.size = size
        } else {
            self.size = takesSize ? .year : nil
        }
    }

    package var description: String { size.map { "\(method)@\($0)" } ?? method }

    /// A fresh request of this kind.
    func template(generator: inout StepDataGenerator, today: LocalDate, timeZone: String) throws -> RequestTemplate {
        guard let zone = ZoneName(timeZone) else { throw WorkloadError("unknown time zone \(timeZone)") }
        let time = RequestTime(timeZone: zone, today: today)
        let calendar = ZoneCalendar(timeZone: zone.timeZone)
        let size = self.size ?? .year
        var training = WorkoutDataGenerator(seed: generator.generator.next())
        switch method {
        case SystemPing.name:
            return try template(SystemPing.self, SystemPing.Params())
        case SystemDescribe.name:
            return try template(SystemDescribe.self, SystemDescribe.Params())
        case HistoryMonths.name:
            let records = generator.records(endingOn: today, size: size)
            return try template(HistoryMonths.self, HistoryMonths.Params(time: time, records: records, isPro: true))
        case HistoryMonth.name:
            let goals = GoalParams(log: generator.goalLog(endingOn: today, size: size))
            let records = generator.records(endingOn: today, size: size)
            // The month before last: a whole month of data, as when a user scrolls back.
            let month = today.yearMonth.previous?.previous
            return try template(
                HistoryMonth.self,
                HistoryMonth.Params(
                    time: time, goals: goals, records: records, month: month, weekStartsOn: .monday, isPro: true))
        case HistoryDashboard.name:
            let goals = GoalParams(log: generator.goalLog(endingOn: today, size: size))
            let records = generator.records(endingOn: today, size: size)
            let samples = generator.samples(on: today, zone: calendar)
            return try template(
                HistoryDashboard.self,
                HistoryDashboard.Params(time: time, goals: goals, records: records, samples: samples))
        case StreakSummary.name:
            let goals = GoalParams(log: generator.goalLog(endingOn: today, size: size))
            let records = generator.records(endingOn: today, size: size)
            return try template(
                StreakSummary.self,
                StreakSummary.Params(time: time, goals: goals, records: records, weekStartsOn: .monday))
        case WorkoutCalendar.name:
            let (stretches, meditations) = training.sessions(endingOn: today, size: size, zone: calendar)
            let workouts = training.workouts(endingOn: today, size: size, zone: calendar)
            return try template(
                WorkoutCalendar.self,
                WorkoutCalendar.Params(
                    time: time, month: today.adding(days: -20).yearMonth, workouts: workouts,
                    stretches: stretches, meditations: meditations))
        case WorkoutDay.name:
            let workouts = training.workouts(endingOn: today, size: size, zone: calendar)
            let day = workouts.last.map { calendar.localDate(of: $0.completedAt.instant) } ?? today
            return try template(
                WorkoutDay.self, WorkoutDay.Params(time: time, date: day, unit: .kilogram, workouts: workouts))
        case WorkoutDetail.name:
            let workouts = training.workouts(endingOn: today, size: size, zone: calendar)
            // A workout of the history, as a client drills down from its list or its calendar: any of them is
            // answered with a result, since none is dated after today.
            let workout = workouts.randomElement(using: &training.generator)
            return try template(
                WorkoutDetail.self,
                WorkoutDetail.Params(
                    time: time, workoutID: workout?.id ?? "w1", unit: .kilogram, workouts: workouts))
        default:
            throw WorkloadError("no generator for \(method)")
        }
    }

    /// Encodes `params` once; every request of the template reuses the bytes.
    private func template<M: TallyMethod>(
        _ method: M.Type, _ params: M.Params, service: TallyService = M.defaultService
    ) throws -> RequestTemplate {
        RequestTemplate(
            service: service.rawValue, method: M.name, label: description,
            params: Array(try TallyJSON.encoder().encode(params)))
    }
}
