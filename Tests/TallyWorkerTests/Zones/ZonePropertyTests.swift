import Foundation
import PropertyBased
import TallyCalendar
import TallyCore
import TallyTesting
import Testing

/// Every date-taking method, through the dispatcher, in every zone of the tz database Foundation knows: on the
/// days around every transition in a span of years, on random dates, and at the two ends of the calendar. Each
/// case must meet every invariant of `ZoneCaseCheck`; the answers are held to `ZoneOracle`, which reads the zone
/// data by a method of its own. The span and the counts are `ZoneSweepSettings` (`scripts/zones` runs more).
@Suite struct ZonePropertyTests {
    static let zones = TimeZone.knownTimeZoneIdentifiers.sorted()
    static let settings = ZoneSweepSettings.current

    /// The first violations of up to three cases, so a failure shows whole cases without flooding the report.
    static func report(_ violations: [String], of cases: Int) -> Comment {
        let first = violations.prefix(12).joined(separator: "\n")
        return Comment(rawValue: "\(violations.count) violations in \(cases) cases; first:\n\(first)")
    }

    /// The checks of one zone. For each transition in the span: the daily chart of the day whose span holds it (as
    /// the oracle finds the days), and of the day before when that one is empty (the date a zone skipped); every
    /// eighth transition also one more method in turn (the other methods' invariants depend on the zone only
    /// through today). `now`, samples and workouts are scattered around the transition by a generator seeded from
    /// the zone and the transition. `TALLY_ZONE_ALL_METHODS=1` (`scripts/zones`) sends every method for the day
    /// before, the day of and the day after each transition.
    static func transitionChecks(of zone: String) -> [(ZoneCase, [ZoneCaseCheck.Request])] {
        let (start, end) = settings.span
        let oracle = ZoneOracle(TimeZone(identifier: zone)!)
        var checks: [(ZoneCase, [ZoneCaseCheck.Request])] = []
        let others = ZoneCaseCheck.Request.allCases.filter { $0 != .dailyDashboard }
        for (index, transition) in oracle.transitions(from: start, to: end).enumerated() {
            var random = Xoshiro(
                seed: (
                    UInt64(truncatingIfNeeded: zone.utf8.reduce(7) { $0 &* 31 &+ Int($1) }), UInt64(index),
                    UInt64(bitPattern: Int64(transition)), 0x9E37_79B9_7F4A_7C15
                ))
            // The clock's date at the transition, moved to the day whose span holds it.
            var holding = oracle.wallClock(at: transition).dayNumber
            while oracle.dayStart(holding) > transition { holding -= 1 }
            while oracle.dayStart(holding + 1) <= transition { holding += 1 }
            let days =
                settings.allMethods
                ? [holding - 1, holding, holding + 1]
                : oracle.skipped(holding - 1) ? [holding - 1, holding] : [holding]
            for day in days {
                let spread = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                    Int.random(in: -36 * 3600...36 * 3600, using: &random)
                }
                let zoneCase = ZoneCase(
                    zone: zone, pivot: transition, dayShift: day - oracle.wallClock(at: transition).dayNumber,
                    nowShift: Int.random(in: -6 * 3600...40 * 3600, using: &random),
                    weekStartsOnMonday: Bool.random(using: &random), spread: spread)
                // A date the zone skipped gets every method, in every zone that has one: its record is a day like
                // any other, and the dates around it are where streaks and grids could go wrong.
                let requests: [ZoneCaseCheck.Request] =
                    settings.allMethods || oracle.skipped(day)
                    ? ZoneCaseCheck.Request.allCases
                    : day == holding && index % 8 == 0
                        ? [.dailyDashboard, others[index / 8 % others.count]] : [.dailyDashboard]
                checks.append((zoneCase, requests))
            }
        }
        return checks
    }

    /// The zones dealt out to one thread per core, each a thread of its own: the sweep computes for seconds (the
    /// longest test of the suite), and on the cooperative pool it would starve the suites beside it that wait on
    /// real sockets. Split, it no longer sets the suite's wall time on a machine with a core to spare.
    @Test func aroundEveryTransitionOfEveryZone() async throws {
        let shares = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let results = try await withThrowingTaskGroup(of: (Int, Int, [String]).self) { group in
            for share in 0..<shares {
                group.addTask {
                    try await onOwnThread { () -> (Int, Int, [String]) in
                        var count = 0
                        var skippedDates = 0
                        var violations: [String] = []
                        for zone in Self.zones.enumerated().filter({ $0.offset % shares == share }).map(\.element) {
                            let oracle = ZoneOracle(TimeZone(identifier: zone)!)
                            for (zoneCase, requests) in Self.transitionChecks(of: zone) {
                                count += 1
                                if oracle.skipped(zoneCase.dayNumber) { skippedDates += 1 }
                                violations += ZoneCaseCheck.violations(of: zoneCase, requests: requests)
                            }
                        }
                        return (count, skippedDates, violations)
                    }
                }
            }
            return try await group.reduce(into: [(Int, Int, [String])]()) { $0.append($1) }
        }
        let count = results.reduce(0) { $0 + $1.0 }
        let skippedDates = results.reduce(0) { $0 + $1.1 }
        let violations = results.flatMap(\.2)
        // A sweep over nothing proves nothing: the decades around 1970–2010 alone hold thousands of transitions
        // (the early 1800s, which `scripts/zones` also walks, only a few dozen).
        let modern = Self.settings.firstYear <= 1970 && Self.settings.lastYear >= 2010
        #expect(
            count > (modern ? 1000 : 0), "only \(count) cases in \(Self.settings.firstYear)…\(Self.settings.lastYear)")
        // From 1840 to 2040 the database holds skipped dates (Manila 1844, Kwajalein 1993, Apia 2011, …).
        if Self.settings.firstYear <= 1993, Self.settings.lastYear >= 2011 {
            #expect(skippedDates >= 3, "only \(skippedDates) skipped dates were checked")
        }
        #expect(violations.isEmpty, Self.report(violations, of: count))
    }

    /// One case's violations, computed on a thread of its own (`onOwnThread`): the cases of a property run add up
    /// to seconds of CPU, which on the cooperative pool would starve the transport suites beside them.
    static func violationsOffPool(of zoneCase: ZoneCase) async -> [String] {
        do {
            return try await onOwnThread { ZoneCaseCheck.violations(of: zoneCase) }
        } catch {
            return ["\(error)"]
        }
    }

    /// Random dates from 1800 to 2200 in random zones, with `now` up to two days after the date's midnight.
    @Test func randomDatesInRandomZones() async {
        let days = ZoneCase.dayNumber(year: 1800)...ZoneCase.dayNumber(year: 2200)
        await propertyCheck(
            count: Self.settings.randomCases,
            input: Gen.element(of: Self.zones), Gen.int(in: days), Gen.int(in: -6 * 3600...48 * 3600), Gen.bool,
            Gen.int(in: -30 * 3600...54 * 3600).array(of: 0...10)
        ) { zone, day, nowShift, monday, spread in
            let zoneCase = ZoneCase(
                zone: zone!, pivot: Double(day * 86_400), dayShift: 0, nowShift: nowShift, weekStartsOnMonday: monday,
                spread: spread)
            let violations = await Self.violationsOffPool(of: zoneCase)
            #expect(violations.isEmpty, Self.report(violations, of: 1))
        }
    }

    /// The first and last weeks of the calendar, where weeks, days and instants reach beyond what Tally supports
    /// and must be refused (or answered whole), never cut short.
    @Test func theEndsOfTheCalendar() async {
        let first = Int(LocalDate.earliest.dayNumber)
        let last = Int(LocalDate.latest.dayNumber)
        await propertyCheck(
            count: Self.settings.randomCases,
            input: Gen.element(of: Self.zones), Gen.int(in: 0...12), Gen.bool, Gen.int(in: -20 * 3600...40 * 3600),
            Gen.bool, Gen.int(in: -30 * 3600...30 * 3600).array(of: 0...6)
        ) { zone, days, atTheEnd, nowShift, monday, spread in
            let day = atTheEnd ? last - days : first + days
            let zoneCase = ZoneCase(
                zone: zone!, pivot: Double(day * 86_400), dayShift: 0, nowShift: nowShift, weekStartsOnMonday: monday,
                spread: spread)
            let violations = await Self.violationsOffPool(of: zoneCase)
            #expect(violations.isEmpty, Self.report(violations, of: 1))
        }
    }
}

extension ZoneCase {
    /// Days since 1970-01-01 of 1 January of `year`.
    static func dayNumber(year: Int) -> Int { Int(LocalDate(year: year, month: 1, day: 1)!.dayNumber) }
}
