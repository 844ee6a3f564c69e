import Foundation
import TallyTesting
import Testing

/// `tally-load` stopped before its end: by SIGINT or SIGTERM (the report of the run so far, thresholds evaluated,
/// exit 130 or 143) or by `--abort-on-fail` (exit 4); and its progress lines in a log.
@Suite(.realProcesses) struct LoadToolStopTests {
    func json(_ text: String, _ errorOutput: String) throws -> [String: Any] {
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return try #require(object, "a complete JSON report: \(text)\n\(errorOutput)")
    }

    @Test(arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, 143, "SIGTERM")])
    func aSignalEndsTheRunWithItsReport(signal: Int32, status: Int32, name: String) async throws {
        // Replies take 5 ms, so a p99 of 1 ms fails: its message must still be printed.
        let cluster = try await TallyCluster.start(workers: 1, workerArguments: ["--simulated-latency", "5ms"])
        let load = try ManagedProcess(
            TallyBinaries.load,
            [
                "--broker", cluster.endpoint, "--in-flight", "4", "--duration", "60s", "--progress-interval", "1s",
                "--max-p99", "1ms", "--max-error-rate", "0", "--json",
            ], name: "tally-load")
        // Running and measuring: a progress line says so.
        #expect(
            await eventually(timeout: .seconds(20)) { load.errorOutput.contains("successes/s") }, "\(load.errorOutput)")
        let signalled = ContinuousClock.now
        kill(load.processIdentifier, signal)
        let exit = await load.waitForExit(timeout: .seconds(20))
        let stopping = ContinuousClock.now - signalled
        await cluster.stop()

        #expect(exit == status, "\(load.errorOutput)")
        #expect(stopping < .seconds(10), "stopped long before its 60 s: \(stopping)")
        let report = try json(load.output.joined(separator: "\n"), load.errorOutput)
        #expect(report["stopped_by"] as? String == name)
        let tally = try #require(report["tally"] as? [String: Any])
        let sent = try #require(tally["sent"] as? Int)
        let succeeded = try #require(tally["succeeded"] as? Int)
        let ended = [tally["failed"], tally["unanswered"], tally["in_flight"]].compactMap { $0 as? Int }.reduce(0, +)
        #expect(succeeded > 0 && sent == succeeded + ended, "every request sent is counted once: \(tally)")
        #expect((tally["elapsed_seconds"] as? Double ?? 0) < 30)
        #expect(tally["latency"] is [String: Any], "latencies of the run so far")
        let thresholds = try #require(report["thresholds"] as? [[String: Any]])
        #expect(thresholds.map { $0["name"] as? String } == ["max-error-rate", "max-p99"])
        #expect(thresholds.map { $0["passed"] as? Bool } == [true, false], "\(thresholds)")
        #expect(load.errorOutput.contains("\(name): starting no more requests"), "\(load.errorOutput)")
        #expect(load.errorOutput.contains("threshold failed: --max-p99"), "\(load.errorOutput)")
    }

    @Test func offATerminalProgressIsAPlainLineOnStandardErrorAndStandardOutputStaysJSON() async throws {
        let cluster = try await TallyCluster.start(workers: 1)
        let result = try await ShortCommand.run(
            TallyBinaries.load,
            [
                "--broker", cluster.endpoint, "--in-flight", "2", "--duration", "3500ms", "--progress-interval", "1s",
                "--json",
            ],
            timeout: .seconds(30))
        let quiet = try await ShortCommand.run(
            TallyBinaries.load,
            ["--broker", cluster.endpoint, "--in-flight", "2", "--duration", "1500ms", "--progress-interval", "0"],
            timeout: .seconds(30))
        await cluster.stop()

        #expect(result.status == 0, "\(result.errorOutput)")
        _ = try json(result.output, result.errorOutput)
        let lines = result.errorOutput.split(separator: "\n").filter { $0.contains("successes/s") }
        #expect(lines.count >= 2 && lines.count <= 4, "one line a second: \(result.errorOutput)")
        for line in lines {
            #expect(line.hasPrefix("tally-load: ") && !line.contains("\r") && !line.contains("\u{1B}"), "\(line)")
            for field in [" s, ", "successes/s", " requests", " errors", " no answer", "error rate ", "p99 "] {
                #expect(line.contains(field), "\(field) in \(line)")
            }
        }
        #expect(
            quiet.status == 0 && !quiet.errorOutput.contains("successes/s"), "0 is no progress: \(quiet.errorOutput)")
    }

    @Test func abortOnFailStopsARunWhoseErrorRateCanNoLongerBeMet() async throws {
        // Capacity 50/s with a queue of 2: most of 400/s are refused, so 1% of 4000 (40 errors) is soon exceeded.
        let cluster = try await TallyCluster.start(workers: 0, brokerArguments: ["--max-queue", "2"])
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: ["--service", "tally.history", "--concurrency", "1", "--simulated-latency", "20ms"])
        let aborted = try await ShortCommand.run(
            TallyBinaries.load,
            [
                "--broker", cluster.endpoint, "--rate", "400", "--requests", "4000", "--max-error-rate", "1%",
                "--abort-on-fail", "--json",
            ], timeout: .seconds(60))
        // Without a request count: a p99 of 1 ms fails over the run so far once the second of warm-up is over.
        let soFar = try await ShortCommand.run(
            TallyBinaries.load,
            [
                "--broker", cluster.endpoint, "--rate", "20", "--duration", "60s", "--max-p99", "1ms",
                "--abort-on-fail", "--abort-delay", "1s", "--json",
            ], timeout: .seconds(60))
        worker.terminate()
        await worker.waitForExit()
        await cluster.stop()

        #expect(aborted.status == 4, "\(aborted.errorOutput)")
        let report = try json(aborted.output, aborted.errorOutput)
        #expect(report["stopped_by"] as? String == "abort-on-fail")
        let tally = try #require(report["tally"] as? [String: Any])
        #expect((tally["sent"] as? Int ?? .max) < 2000, "stopped early, not after 4000 requests: \(tally)")
        #expect((tally["failed"] as? Int ?? 0) > 40)
        #expect(
            aborted.errorOutput.contains("--abort-on-fail stopped the run: --max-error-rate"), "\(aborted.errorOutput)")
        #expect(aborted.errorOutput.contains("threshold failed: --max-error-rate"))

        #expect(soFar.status == 4, "\(soFar.errorOutput)")
        let soFarReport = try json(soFar.output, soFar.errorOutput)
        #expect(soFarReport["stopped_by"] as? String == "abort-on-fail")
        let elapsed = (soFarReport["tally"] as? [String: Any])?["elapsed_seconds"] as? Double ?? .infinity
        #expect(elapsed >= 1 && elapsed < 15, "after the warm-up, long before 60 s: \(elapsed)")
        #expect(soFar.errorOutput.contains("--abort-on-fail stopped the run: --max-p99"), "\(soFar.errorOutput)")
    }
}
