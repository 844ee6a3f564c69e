import Foundation
import PropertyBased
import TallyCalendar
import TallyCore
import TallyProtocol
import TallyTesting
import Testing

@testable import TallyWorker

/// `RequestTime.today`, which a client reads to send dates relative to today, is the day the worker takes for
/// today, in every zone, at instants around each zone's transitions and at random.
@Suite struct ClientTodayTests {
    @Test func aClientsTodayIsTheWorkersToday() throws {
        var random = Xoshiro(seed: (11, 12, 13, 14))
        var mismatches: [String] = []
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            let name = try #require(ZoneName(identifier), "\(identifier)")
            var instants = (0..<20).map { _ in
                Date(timeIntervalSince1970: Double.random(in: -5e9...5e9, using: &random))
            }
            var transition = Date(timeIntervalSince1970: 0)
            for _ in 0..<6 {
                guard let next = name.timeZone.nextDaylightSavingTimeTransition(after: transition) else { break }
                instants += [next - 1, next, next + 1]
                transition = next
            }
            for instant in instants {
                let time = RequestTime(timeZone: name, now: instant)
                if time.today != time.referenceDay.today {
                    mismatches.append("\(identifier) \(instant): \(time.today) vs \(time.referenceDay.today)")
                }
            }
        }
        for minutes in [-18 * 60, -570, 0, 345, 14 * 60] {
            let now = Timestamp(Date(timeIntervalSince1970: 1_700_000_000))
            let time = RequestTime(zone: .fixedOffset(minutes: minutes), reference: .now(now))
            if time.today != time.referenceDay.today { mismatches.append("offset \(minutes)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }
}
