import Foundation
import TallyCore
import TallyJSONCoding
import TallyLoad
import TallyProtocol

/// Seeded request data, the same in every run: what the load tool sends, sized as the issue asks.
package enum Fixtures {
    /// A fixed "today", so that results do not drift with the calendar.
    package static let today = LocalDate(year: 2026, month: 11, day: 23)!
    package static let zone = ZoneName("Europe/Berlin")!
    /// The zone's calendar, for placing generated activities on its days.
    static let calendar = ZoneCalendar(timeZone: zone.timeZone)

    /// `streak.summary` params: `size` of daily records and a goal log of 50 changes (the 10-year log).
    package static func streakParams(_ size: HistorySize) -> StreakSummary.Params {
        var generator = StepDataGenerator(seed: 42)
        return StreakSummary.Params(
            time: RequestTime(timeZone: zone, today: today),
            goals: GoalParams(log: generator.goalLog(endingOn: today, size: .decade)),
            records: generator.records(endingOn: today, size: size),
            weekStartsOn: .monday)
    }

    /// `workout.day` params over two years of workouts (~520 workouts of 6 exercises × 4 sets), for the last
    /// training day.
    package static func workoutDayParams() -> WorkoutDay.Params {
        var generator = WorkoutDataGenerator(seed: 42)
        let workouts = generator.workouts(endingOn: today, size: .twoYears, zone: calendar)
        let day = workouts.last.map { calendar.localDate(of: $0.completedAt.instant) } ?? today
        return WorkoutDay.Params(time: RequestTime(timeZone: zone, today: today), date: day, workouts: workouts)
    }

    /// `workout.calendar` params for the current month over the same two years.
    package static func workoutCalendarParams() -> WorkoutCalendar.Params {
        var generator = WorkoutDataGenerator(seed: 42)
        let workouts = generator.workouts(endingOn: today, size: .twoYears, zone: calendar)
        let (stretches, meditations) = generator.sessions(endingOn: today, size: .twoYears, zone: calendar)
        return WorkoutCalendar.Params(
            time: RequestTime(timeZone: zone, today: today), month: today.yearMonth, workouts: workouts,
            stretches: stretches, meditations: meditations)
    }

    /// A whole v1 request body for `method` with `params`, encoded by Foundation (the reference encoder).
    package static func requestBody(method: String, params: some Encodable & Sendable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let envelope = RequestEnvelope(head: RequestHead(id: "bench-1", method: method), params: params)
        return Array(try! encoder.encode(envelope))
    }

    /// The three real shapes of params, as a Tally client writes them (members in declaration order), by name:
    /// daily records with a goal log (a year, ten years), a day's hourly samples beside three years of records, and
    /// two years of workouts with their exercises and sets.
    package static var shapes: [(name: String, bytes: [UInt8])] {
        let encode = { (params: any Encodable) in try! TallyJSON.encoder().encodeToBytes(params) }
        return [
            ("streak-1y", encode(streakParams(.year))),
            ("streak-10y", encode(streakParams(.decade))),
            ("dashboard-daily-3y", encode(historyDashboardParams(.daily))),
            ("workout-day-2y", encode(workoutDayParams())),
        ]
    }

    /// Whole request bodies of the methods the issue measures, as `TallyClient` writes them (Tally's encoder, the
    /// envelope's members in order, the params last), by name: `codec-loop respond` answers them.
    package static var requests: [(name: String, service: String, bytes: [UInt8])] {
        func request(_ method: String, _ params: some Encodable & Sendable) -> [UInt8] {
            try! TallyJSON.encoder().encodeToBytes(
                RequestEnvelope(head: RequestHead(id: "bench-1", method: method), params: params))
        }
        return [
            ("streak.summary-1y", "tally.streak", request(StreakSummary.name, streakParams(.year))),
            ("history.month-3y", "tally.history", request(HistoryMonth.name, historyMonthParams())),
            (
                "history.dashboard-daily-3y", "tally.history",
                request(HistoryDashboard.name, historyDashboardParams(.daily))
            ),
            ("workout.day-2y", "tally.workout", request(WorkoutDay.name, workoutDayParams())),
            // Two more result shapes for the encoding benchmark: a month of day objects, and a month of activities.
            (
                "history.dashboard-monthly-3y", "tally.history",
                request(HistoryDashboard.name, historyDashboardParams(.monthly))
            ),
            ("workout.calendar-2y", "tally.workout", request(WorkoutCalendar.name, workoutCalendarParams())),
        ]
    }

    /// The params alone, encoded by Foundation.
    package static func paramsBody(_ params: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try! encoder.encode(params))
    }
}
