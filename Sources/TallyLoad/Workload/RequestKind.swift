import Foundation
import TallyCore
import TallyProtocol

/// One kind of request the load tool can generate: a method and, for methods that take history, its size.
public struct RequestKind: Sendable, Hashable, CustomStringConvertible {
    public let method: String
    public let size: HistorySize?

    /// Methods with a generator, and whether they take a size.
    public static let generators: [String: Bool] = [
        SystemPing.name: false,
        HistoryMonths.name: true,
        HistoryMonth.name: true,
        HistoryDashboard.name: true,
        StreakSummary.name: true,
        WorkoutCalendar.name: true,
        WorkoutDay.name: true,
    ]

    /// Parses `method` or `method@size` (`streak.summary@1y`).
    public init(parsing text: String) throws {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        guard let method = parts.first, let takesSize = Self.generators[method] else {
            throw WorkloadError("unknown method '\(text)'; known: \(Self.generators.keys.sorted().joined(separator: ", "))")
        }
        self.method = method
        if parts.count == 2 {
            guard takesSize, let size = HistorySize(rawValue: parts[1]) else {
                throw WorkloadError("'\(text)': sizes are \(HistorySize.allCases.map(\.rawValue).joined(separator: ", ")) for methods with history")
            }
            self.size = size
        } else {
            self.size = takesSize ? .year : nil
        }
    }

    public var description: String { size.map { "\(method)@\($0)" } ?? method }

    /// A fresh request of this kind.
    func template(generator: inout StepDataGenerator, today: LocalDate, timeZone: String) throws -> RequestTemplate {
        guard let zone = ZoneName(timeZone) else { throw WorkloadError("unknown time zone \(timeZone)") }
        let encoder = TallyJSON.encoder()
        var training = WorkoutDataGenerator(seed: generator.generator.next())
        switch method {
        case SystemPing.name:
            return RequestTemplate(service: TallyService.history.rawValue, method: method, label: description, params: Array("{}".utf8))
        case HistoryMonths.name:
            let params = HistoryMonths.Params(
                time: RequestTime(timeZone: zone, today: today), records: generator.records(endingOn: today, size: size ?? .year),
                isPro: true)
            return RequestTemplate(
                service: HistoryMonths.service.rawValue, method: method, label: description, params: Array(try encoder.encode(params)))
        case HistoryMonth.name:
            let size = self.size ?? .year
            // The month before last: a whole month of data, as when a user scrolls back.
            let params = HistoryMonth.Params(
                time: RequestTime(timeZone: zone, today: today),
                goals: GoalParams(log: generator.goalLog(endingOn: today, size: size)),
                records: generator.records(endingOn: today, size: size),
                month: today.yearMonth.previous?.previous, weekStartsOn: .monday, isPro: true)
            return RequestTemplate(
                service: HistoryMonth.service.rawValue, method: method, label: description, params: Array(try encoder.encode(params)))
        case HistoryDashboard.name:
            let size = self.size ?? .year
            let params = HistoryDashboard.Params(
                time: RequestTime(timeZone: zone, today: today),
                goals: GoalParams(log: generator.goalLog(endingOn: today, size: size)),
                records: generator.records(endingOn: today, size: size),
                samples: generator.samples(on: today, zone: zone.calendar))
            return RequestTemplate(
                service: HistoryDashboard.service.rawValue, method: method, label: description, params: Array(try encoder.encode(params)))
        case StreakSummary.name:
            let size = self.size ?? .year
            let params = StreakSummary.Params(
                time: RequestTime(timeZone: zone, today: today),
                goals: GoalParams(log: generator.goalLog(endingOn: today, size: size)),
                records: generator.records(endingOn: today, size: size),
                weekStartsOn: .monday)
            return RequestTemplate(
                service: StreakSummary.service.rawValue, method: method, label: description, params: Array(try encoder.encode(params)))
        case WorkoutCalendar.name:
            let size = self.size ?? .year
            let (stretches, meditations) = training.sessions(endingOn: today, size: size, zone: zone.calendar)
            let params = WorkoutCalendar.Params(
                time: RequestTime(timeZone: zone, today: today), month: today.adding(days: -20).yearMonth,
                workouts: training.workouts(endingOn: today, size: size, zone: zone.calendar),
                stretches: stretches, meditations: meditations)
            return RequestTemplate(
                service: WorkoutCalendar.service.rawValue, method: method, label: description, params: Array(try encoder.encode(params)))
        case WorkoutDay.name:
            let size = self.size ?? .year
            let workouts = training.workouts(endingOn: today, size: size, zone: zone.calendar)
            let day = workouts.last.map { zone.calendar.localDate(of: $0.completedAt.instant) } ?? today
            let params = WorkoutDay.Params(time: RequestTime(timeZone: zone, today: today), date: day, unit: .kilogram, workouts: workouts)
            return RequestTemplate(
                service: WorkoutDay.service.rawValue, method: method, label: description, params: Array(try encoder.encode(params)))
        default:
            throw WorkloadError("no generator for \(method)")
        }
    }
}
