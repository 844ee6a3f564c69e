import Foundation
import Logging
import TallyCalendar
import TallyCore
import TallyProtocol
import TallyWorker

/// Sends every date-taking method a `ZoneCase` through the dispatcher and lists every way the answers break the
/// invariants: exactly one result or one structured error, and that error only where a documented edge rule
/// refuses the request; hours that are the day's elapsed hours, consecutive, written as exact instants and holding
/// the day's samples; weeks and months of whole 7-day rows with the right days; today as the zone's date of `now`.
///
/// Violations are collected as text rather than recorded one by one, so that a sweep over thousands of cases
/// reports the first few failing cases whole instead of drowning in issues.
struct ZoneCaseCheck {
    static let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "zones/1", version: "test"))
        .dispatcher(limits: RequestLimits())

    let zoneCase: ZoneCase
    let oracle: ZoneOracle
    /// Today as the oracle reads the clock at `now`.
    let todayNumber: Int
    private(set) var violations: [String] = []

    init(_ zoneCase: ZoneCase) {
        self.zoneCase = zoneCase
        self.oracle = ZoneOracle(TimeZone(identifier: zoneCase.zone)!)
        self.todayNumber = oracle.wallClock(at: zoneCase.now).dayNumber
    }

    /// The requests a case can be checked with.
    enum Request: CaseIterable, Sendable {
        case historyMonths, historyMonth, dailyDashboard, weeklyAndMonthlyDashboards, streakSummary
        case workoutCalendar, workoutDay, workoutDetail
    }

    /// Sends the case `requests` (by default every date-taking method) and lists what broke.
    static func violations(
        of zoneCase: ZoneCase, requests: [Request] = Request.allCases
    ) -> [String] {
        var check = ZoneCaseCheck(zoneCase)
        for request in requests {
            switch request {
            case .historyMonths: check.checkHistoryMonths()
            case .historyMonth: check.checkHistoryMonth()
            case .dailyDashboard: check.checkDailyDashboard()
            case .weeklyAndMonthlyDashboards: check.checkWeeklyAndMonthlyDashboards()
            case .streakSummary: check.checkStreakSummary()
            case .workoutCalendar: check.checkWorkoutCalendar()
            case .workoutDay: check.checkWorkoutDay()
            case .workoutDetail: check.checkWorkoutDetail()
            }
        }
        return check.violations.map { "\(zoneCase): \($0)" }
    }

    mutating func fail(_ text: String) { violations.append(text) }

    // MARK: Supported range

    static let earliest = Int(LocalDate.earliest.dayNumber)
    static let latest = Int(LocalDate.latest.dayNumber)

    func isSupported(_ dayNumber: Int) -> Bool { dayNumber >= Self.earliest && dayNumber <= Self.latest }

    /// The field every method must refuse first, when the time frame itself is out of range.
    var timeFrameRefusal: String? { isSupported(todayNumber) ? nil : "params.now" }

    /// The first workout whose completion falls on an unsupported local date.
    var workoutRefusal: String? {
        zoneCase.instants.indices.first { !isSupported(oracle.wallClock(at: zoneCase.instants[$0]).dayNumber) }
            .map { "params.workouts[\($0)].completed_at" }
    }

    // MARK: Dispatch

    /// What one request came back with.
    enum Answer {
        case result([String: Any])
        case refusal(code: String, field: String?)
        case broken(String)
    }

    func send(_ method: String, service: String, _ params: String) -> Answer {
        let reply = Self.dispatcher.respond(
            to: zoneCase.body(method, params), service: service, logger: Logger(label: "zones"))
        guard let response = try? JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any] else {
            return .broken("\(method): the reply is not a JSON object")
        }
        switch (response["result"] as? [String: Any], response["error"] as? [String: Any]) {
        case (let result?, nil):
            return .result(result)
        case (nil, let error?):
            guard let code = error["code"] as? String, error["message"] is String else {
                return .broken("\(method): an error without code or message: \(error)")
            }
            return .refusal(code: code, field: (error["details"] as? [String: Any])?["field"] as? String)
        default:
            return .broken("\(method): not exactly one of result and error: \(response)")
        }
    }

    /// The result of `method`, or `nil` after checking that it was refused exactly as `expectedRefusal` says
    /// (`invalid_params` on that field); any other outcome is a violation.
    mutating func answer(
        _ method: String, service: String, _ params: String, expectedRefusal: String?
    ) -> [String: Any]? {
        switch send(method, service: service, params) {
        case .broken(let problem):
            fail(problem)
        case .refusal(let code, let field):
            if let expectedRefusal, code == "invalid_params", field == expectedRefusal { return nil }
            fail("\(method): refused \(code) on \(field ?? "no field"), expected \(expectedRefusal ?? "a result")")
        case .result(let result):
            guard let expectedRefusal else { return result }
            fail("\(method): answered, expected invalid_params on \(expectedRefusal)")
        }
        return nil
    }

    // MARK: Reading answers

    func dates(_ list: Any?) -> [String]? {
        (list as? [[String: Any]])?.compactMap { $0["date"] as? String }
    }

    func text(_ dayNumber: Int) -> String { LocalDate(dayNumber: dayNumber).description }

    /// Seconds since 1970 of an instant Tally wrote, read back exactly (to the millisecond it writes).
    func seconds(_ text: Any?) -> Double? {
        guard let text = text as? String, let parsed = try? RFC3339.parse(text) else { return nil }
        return Double(parsed.instant.secondsSince1970)
    }

    /// The weekday of a day number, 0 for Sunday (1970-01-01 was a Thursday).
    func weekdayFromSunday(_ dayNumber: Int) -> Int { ((dayNumber + 4) % 7 + 7) % 7 }

    /// The first day of the week holding `dayNumber`.
    func weekFirst(_ dayNumber: Int) -> Int {
        dayNumber - (weekdayFromSunday(dayNumber) - (zoneCase.weekStartsOnMonday ? 1 : 0) + 7) % 7
    }

    /// Checks a grid of week rows: 7 cells each, the days `first...last` in order after the right blanks.
    mutating func checkGrid(_ grid: Any?, first: Int, last: Int, what: String) {
        guard let grid = grid as? [String: Any], let weeks = grid["weeks"] as? [[Any]] else {
            return fail("\(what): no grid")
        }
        if weeks.contains(where: { $0.count != 7 }) { fail("\(what): a row without 7 cells") }
        let cells = weeks.flatMap { $0 }
        let expectedBlanks = (weekdayFromSunday(first) - (zoneCase.weekStartsOnMonday ? 1 : 0) + 7) % 7
        let leading = cells.prefix { $0 is NSNull }.count
        if leading != expectedBlanks { fail("\(what): \(leading) leading blanks, expected \(expectedBlanks)") }
        let days = cells.compactMap { $0 as? String }
        if days != (first...last).map(text) { fail("\(what): grid days \(days.first ?? "-")…\(days.last ?? "-")") }
        if cells.count - leading - days.count >= 7 { fail("\(what): a row of blanks only") }
    }
}
