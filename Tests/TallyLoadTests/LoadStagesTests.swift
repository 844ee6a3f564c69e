import Foundation
import TallyLoad
import Testing

/// The staged schedule: the target at each moment, the requests an open loop starts and when, and when an idle
/// closed-loop lane is wanted again.
@Suite struct LoadStagesTests {
    func stages(_ text: String, start: Double = 0) throws -> LoadStages {
        try LoadStages(parsing: text, start: start) { text in
            guard text.hasSuffix("s"), let seconds = Double(text.dropLast()) else { return nil }
            return .milliseconds(Int64(seconds * 1000))
        }
    }

    @Test func theTargetRampsLinearlyFromStageToStage() throws {
        let ramp = try stages("10s:100,30s:1000,10s:0")
        #expect(ramp.duration == .seconds(50))
        #expect(ramp.highestTarget == 1000)
        for (seconds, target) in [
            (0.0, 0.0), (5, 50), (10, 100), (25, 550), (40, 1000), (45, 500), (50, 0), (60, 0), (-1, 0),
        ] {
            #expect(abs(ramp.target(atSeconds: seconds) - target) < 1e-9, "at \(seconds) s")
        }
        // From a starting rate; a 0s stage is a step that holds.
        let step = try stages("0s:40,10s:40", start: 10)
        #expect(step.target(atSeconds: 0) == 40 && step.target(atSeconds: 9.9) == 40)
        #expect(try stages("10s:20", start: 10).target(atSeconds: 5) == 15)
    }

    @Test func anOpenLoopStartsTheAreaUnderTheRate() throws {
        #expect(try stages("10s:100,30s:1000,10s:0").plannedRequests == 500 + 16_500 + 5000)
        #expect(try stages("10s:100", start: 100).plannedRequests == 1000, "a steady stage: rate × duration")
        #expect(try stages("10s:0").plannedRequests == 0, "rate 0 starts nothing")
        #expect(try stages("1s:3").plannedRequests == 2, "1.5 requests due: to the nearest whole one")
    }

    @Test func eachRequestStartsWhenItsShareOfTheRateIsDue() throws {
        let steady = try stages("10s:100", start: 100)
        #expect(abs(try #require(steady.offset(ofRequest: 0)) - 0.005) < 1e-9)
        #expect(abs(try #require(steady.offset(ofRequest: 1)) - 0.015) < 1e-9)
        #expect(abs(try #require(steady.offset(ofRequest: 999)) - 9.995) < 1e-9)
        #expect(steady.offset(ofRequest: 1000) == nil)
        // Ramp from 0 to 100/s over 10 s: due(t) = 5·t², so request k starts at √((k + ½) / 5).
        let ramp = try stages("10s:100")
        for request in [0, 1, 10, 100, 499] {
            let expected = ((Double(request) + 0.5) / 5).squareRoot()
            #expect(abs(try #require(ramp.offset(ofRequest: request)) - expected) < 1e-9, "request \(request)")
        }
        // Ramping down, and a silent stage in between: nothing starts during it.
        let gap = try stages("1s:100,2s:0,1s:0,1s:100")
        let offsets = (0..<gap.plannedRequests).compactMap { gap.offset(ofRequest: $0) }
        #expect(offsets.count == gap.plannedRequests && gap.plannedRequests == 200)
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 }, "in order")
        #expect(!offsets.contains { $0 > 3.0 && $0 < 4.0 }, "rate 0 from 3 s to 4 s")
        #expect(offsets.filter { $0 < 1 }.count == 50 && offsets.filter { $0 >= 1 && $0 <= 3 }.count == 100)
    }

    @Test func anIdleLaneWakesWhenTheTargetComesBackToIt() throws {
        let ramp = try stages("10s:10,10s:0,10s:10")
        #expect(ramp.firstTime(atLeast: 5, from: 0) == 5)
        #expect(ramp.firstTime(atLeast: 5, from: 7) == 7, "already above")
        #expect(ramp.firstTime(atLeast: 8, from: 13) == 28)
        #expect(ramp.firstTime(atLeast: 11, from: 0) == nil, "never that high")
        #expect(ramp.firstTime(atLeast: 1, from: 30) == nil, "the run is over")
        #expect(try stages("5s:0,0s:3,5s:3").firstTime(atLeast: 2, from: 1) == 5, "a step")
    }

    @Test(arguments: ["", "10s", "10s:", ":100", "10s:-1", "10s:abc", "x:100", "10s:100,", "10s:inf"])
    func badStagesAreRefused(text: String) {
        #expect(throws: WorkloadError.self, "\(text)") { try stages(text) }
    }

    @Test func theReportSaysThePacing() throws {
        #expect(try stages("10s:100,30s:1000,10s:0").text(unit: "/s") == "10s→100/s, 30s→1000/s, 10s→0/s")
        #expect(try stages("90s:2.5", start: 1).text(unit: "") == "from 1, 1m30s→2.5")
        let pacing = LoadRunner.Pacing.closedLoopStages(try stages("1.5s:8"))
        #expect(pacing.text == "closed loop stages 1500ms→8 in flight")
        #expect(LoadRunner.Pacing.openLoopStages(try stages("1s:5")).text == "open loop stages 1s→5/s")
    }
}
