import Foundation
import TallyTesting
import Testing

/// `tally-load --stages` against a real cluster: an open loop starts what its ramps add up to, a closed loop
/// follows its in-flight targets, and the report says the pacing.
@Suite(.realProcesses) struct LoadToolStagesTests {
    func load(_ arguments: [String]) async throws -> (ShortCommand.Result, [String: Any]) {
        let result = try await ShortCommand.run(TallyBinaries.load, arguments + ["--json"])
        let object = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return (result, try #require(object, "a JSON report: \(result.output)\n\(result.errorOutput)"))
    }

    @Test func aStagedRunRampsAndSaysItsPacing() async throws {
        let cluster = try await TallyCluster.start(workers: 1)
        // 0→100/s in 1 s, 100/s for 1 s, down to 0 in 1 s: 50 + 100 + 50 requests.
        let (open, openReport) = try await load([
            "--broker", cluster.endpoint, "--rate", "0", "--stages", "1s:100,1s:100,1s:0", "--max-unanswered", "0",
        ])
        let (closed, closedReport) = try await load([
            "--broker", cluster.endpoint, "--stages", "1s:4,500ms:4,1s:0", "--max-unanswered", "0",
        ])
        await cluster.stop()

        #expect(open.status == 0, "\(open.errorOutput)")
        #expect(openReport["pacing"] as? String == "open loop stages 1s→100/s, 1s→100/s, 1s→0/s")
        let stages = try #require(openReport["stages"] as? [[String: Any]])
        #expect(stages.map { $0["target"] as? Double } == [100, 100, 0])
        #expect(stages.map { $0["duration_seconds"] as? Double } == [1, 1, 1])
        let openTally = try #require(openReport["tally"] as? [String: Any])
        #expect(openTally["sent"] as? Int == 200 && openTally["succeeded"] as? Int == 200, "\(openTally)")
        let elapsed = openTally["elapsed_seconds"] as? Double ?? 0
        #expect(elapsed > 2.5 && elapsed < 10, "the stages' 3 s: \(elapsed)")

        #expect(closed.status == 0, "\(closed.errorOutput)")
        #expect(closedReport["pacing"] as? String == "closed loop stages 1s→4, 500ms→4, 1s→0 in flight")
        let closedTally = try #require(closedReport["tally"] as? [String: Any])
        #expect((closedTally["succeeded"] as? Int ?? 0) > 10, "\(closedTally)")
        let closedElapsed = closedTally["elapsed_seconds"] as? Double ?? 0
        #expect(closedElapsed > 2 && closedElapsed < 10, "the stages' 2.5 s: \(closedElapsed)")
    }
}
