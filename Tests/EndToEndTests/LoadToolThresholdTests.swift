import Foundation
import TallyTesting
import Testing

/// `tally-load`'s thresholds of one method, and `--max-unanswered` deciding the exit status of unanswered
/// requests.
@Suite(.realProcesses) struct LoadToolThresholdTests {
    func load(_ arguments: [String]) async throws -> ShortCommand.Result {
        try await ShortCommand.run(TallyBinaries.load, arguments)
    }

    @Test func aThresholdOfOneMethodIsEvaluatedOverItsRows() async throws {
        let cluster = try await TallyCluster.start(workers: 1)
        let result = try await load([
            "--broker", cluster.endpoint, "--mix", "system.ping=2,streak.summary@30d=1,streak.summary@1y=1",
            "--requests", "200", "--in-flight", "4", "--max-p99", "streak.summary=10s", "--max-p95", "10s",
            "--max-p999", "system.ping=10s", "--max-error-rate", "streak.summary@1y=0", "--json",
        ])
        // One method's threshold that fails names it.
        let failing = try await load([
            "--broker", cluster.endpoint, "--mix", "system.ping=1,streak.summary@1y=1", "--requests", "40",
            "--in-flight", "2", "--max-p99", "streak.summary=1ms", "--max-p99", "10s",
        ])
        await cluster.stop()

        #expect(result.status == 0, "\(result.errorOutput)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let thresholds = try #require(report["thresholds"] as? [[String: Any]])
        let described = thresholds.map { "\($0["name"] as? String ?? "?") \($0["method"] as? String ?? "all")" }
        #expect(
            described == [
                "max-error-rate streak.summary@1y", "max-p95 all", "max-p99 streak.summary", "max-p999 system.ping",
            ])
        #expect(thresholds.allSatisfy { $0["passed"] as? Bool == true && $0["measured"] is Double }, "\(thresholds)")

        #expect(failing.status == 4, "\(failing.errorOutput)")
        #expect(failing.errorOutput.contains("threshold failed: --max-p99 streak.summary: p99 of successes"))
        #expect(!failing.errorOutput.contains("threshold failed: --max-p99: "), "the whole run's passed")
        #expect(failing.output.contains("threshold --max-p99 streak.summary: "), "\(failing.output)")
    }

    @Test func maxUnansweredDecidesWhetherUnansweredRequestsFailTheRun() async throws {
        let nobody = "tcp://127.0.0.1:\(try HeldPort().port)"  // free a moment ago: nothing listens there
        let common = ["--broker", nobody, "--requests", "4", "--in-flight", "4", "--timeout", "300ms"]
        #expect(try await load(common).status == 3, "without --max-unanswered: any unanswered request")
        let within = try await load(common + ["--max-unanswered", "4"])
        #expect(within.status == 0, "4 unanswered are allowed: \(within.errorOutput)")
        #expect(within.output.contains("threshold --max-unanswered: unanswered 4 ≤ 4: passed"), "\(within.output)")
        let beyond = try await load(common + ["--max-unanswered", "3"])
        #expect(beyond.status == 3 && beyond.errorOutput.contains("threshold failed: --max-unanswered"))
        #expect(try await load(common + ["--max-unanswered", "50%"]).status == 3, "all 4 of 4 > 50%")
        #expect(try await load(common + ["--max-unanswered", "4", "--max-p99", "1s"]).status == 4, "nothing succeeded")
    }
}
