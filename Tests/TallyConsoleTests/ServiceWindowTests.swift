import Foundation
import Majordomo
import Testing
import ZeroMQ

@testable import TallyConsole

/// A service's last minute: requests per second, errors by code and quantiles over the steps of the window,
/// steps that leave the window forgotten, and the bounds that keep peers from growing it.
@Suite struct ServiceWindowTests {
    @Test func theWindowCountsItsStepsAndForgetsOlderOnes() throws {
        var window = ServiceWindow()
        for _ in 0..<100 { window.delivered(microseconds: 2000) }
        window.failed(code: "overloaded", answered: true)
        window.advance(duration: .seconds(5))
        for _ in 0..<50 { window.delivered(microseconds: 8000) }
        var reading = window.reading(currentDuration: .seconds(5))
        #expect(reading.seconds == 10)
        #expect(reading.requestsPerSecond == 15.1, "151 answers in 10 s")
        #expect(reading.errors == [ClusterDocument.ErrorCount(code: "overloaded", count: 1)])
        #expect(abs(try #require(reading.p50Milliseconds) - 2) < 0.25)
        #expect(abs(try #require(reading.p99Milliseconds) - 8) < 1)
        // Eleven more steps: the first one has left the minute.
        for _ in 0..<11 { window.advance(duration: .seconds(5)) }
        reading = window.reading(currentDuration: .zero)
        #expect(reading.seconds == 55)
        #expect(reading.errors.isEmpty)
        #expect(abs(try #require(reading.p50Milliseconds) - 8) < 1)
        for _ in 0..<1 { window.advance(duration: .seconds(5)) }
        #expect(window.reading(currentDuration: .zero).p50Milliseconds == nil, "everything older than a minute")
        #expect(window.isEmpty)
    }

    @Test func aWorkersInventedCodesAreBoundedPerStep() {
        var window = ServiceWindow()
        for index in 0..<1000 { window.failed(code: "code-\(index)", answered: false) }
        let reading = window.reading(currentDuration: .seconds(1))
        #expect(reading.errors.count == ServiceWindow.maximumCodes + 1)
        #expect(reading.errors.first == ClusterDocument.ErrorCount(code: "other", count: 1000 - 16), "most first")
        #expect(reading.requestsPerSecond == 0, "a worker's error reply was counted by its delivery")
    }

    @Test func theRecorderKeepsWindowsForRegisteredServicesOnly() throws {
        let start = ContinuousClock.now
        let recorder = ConsoleRecorder(maximumServices: 2, now: start)
        recorder.record(.workerReady(worker: "W1", service: "a"))
        recorder.record(.workerReady(worker: "W2", service: "b"))
        recorder.record(.workerReady(worker: "W3", service: "c"))
        for service in ["a", "b", "c", "invented"] {
            recorder.record(.replyDelivered(service: service, latency: .milliseconds(3), attempts: 1))
        }
        recorder.record(.errorReplied(service: "a", code: "invalid_params"))
        recorder.record(.requestFailed(service: "invented", failure: .notServed))
        let reading = recorder.reading(now: start + .seconds(2))
        #expect(Set(reading.windows.keys) == ["a", "b"], "at most two services, the first registered")
        #expect(reading.windows["a"]?.requestsPerSecond == 0.5)
        #expect(reading.windows["a"]?.errors == [ClusterDocument.ErrorCount(code: "invalid_params", count: 1)])
        // The cluster's chart counts every answer, invented names included.
        recorder.tick(now: start + .seconds(5), wallTime: Date(timeIntervalSince1970: 1_800_000_000))
        let point = try #require(recorder.reading(now: start + .seconds(5)).history.last)
        #expect(point.requestsPerSecond == 1, "5 answers in 5 s")
        #expect(point.p99Milliseconds.map { abs($0 - 3) < 0.4 } == true)
        // The invented name's failure is an incident under no service, named in its detail.
        let incident = try #require(reading.incidents.first)
        #expect(incident.key == IncidentLog.Key(kind: "unavailable", service: nil, reason: "not_served"))
        #expect(incident.detail.hasPrefix("invented: "))
    }

    @Test func theChartKeepsFifteenMinutes() {
        var history = RateHistory()
        for step in 0..<(RateHistory.capacity + 20) {
            for _ in 0..<step { history.failed() }
            history.advance(duration: .seconds(5), end: Date(timeIntervalSince1970: Double(step)))
        }
        let points = history.ordered
        #expect(points.count == RateHistory.capacity)
        #expect(points.first?.end == Date(timeIntervalSince1970: 20), "the oldest 20 steps left")
        #expect(points.last?.requestsPerSecond == Double(RateHistory.capacity + 19) / 5)
    }
}
