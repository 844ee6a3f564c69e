import Foundation
import Testing

@testable import TallyConsole

/// Recent incidents: newest first, repeats counted on one entry that moves to the front, and at most `capacity`
/// entries whatever a flood brings.
@Suite struct IncidentLogTests {
    static func key(_ kind: String, _ service: String? = "s", reason: String = "r") -> IncidentLog.Key {
        IncidentLog.Key(kind: kind, service: service, reason: reason)
    }

    @Test func repeatsAreCountedOnOneEntryThatMovesToTheFront() {
        var log = IncidentLog()
        log.record(Self.key("overloaded"), detail: "first", at: Date(timeIntervalSince1970: 1))
        log.record(Self.key("worker_expired"), detail: "w", at: Date(timeIntervalSince1970: 2))
        for second in 3...1002 {
            log.record(Self.key("overloaded"), detail: "again", at: Date(timeIntervalSince1970: Double(second)))
        }
        #expect(log.entries.map(\.key.kind) == ["overloaded", "worker_expired"], "newest first")
        #expect(log.entries[0].count == 1001)
        #expect(log.entries[0].first == Date(timeIntervalSince1970: 1))
        #expect(log.entries[0].last == Date(timeIntervalSince1970: 1002))
        #expect(log.entries[0].detail == "again", "the words of the occurrence that brought it to the front")
    }

    @Test func aFloodOfDistinctIncidentsKeepsTheNewestUpToTheCapacity() {
        var log = IncidentLog()
        for index in 0..<10_000 {
            log.record(Self.key("unavailable", "service-\(index)"), detail: "d", at: Date(timeIntervalSince1970: 0))
        }
        #expect(log.entries.count == IncidentLog.capacity)
        #expect(log.entries.first?.key.service == "service-9999")
        #expect(log.entries.last?.key.service == "service-\(10_000 - IncidentLog.capacity)")
    }

    @Test func aFloodOfTheSameIncidentBuildsNoText() {
        var log = IncidentLog()
        log.record(Self.key("overloaded"), detail: "built", at: Date())
        var built = 0
        for _ in 0..<1000 {
            log.record(
                Self.key("overloaded"),
                detail: {
                    built += 1
                    return "built again"
                }(), at: Date())
        }
        #expect(built == 0)
        #expect(log.entries[0].count == 1001)
    }
}
