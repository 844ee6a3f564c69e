import Foundation
import TallyJSONCoding
import TallyTesting
import Testing

/// `tally-load` against real processes: errors are not throughput, thresholds set the exit status, rows per
/// method, one unit, n/a when nothing was measured, and requests from files.
@Suite(.realProcesses) struct LoadToolTests {
    /// Runs `tally-load` to the end (killed after `timeout`).
    func load(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> ShortCommand.Result {
        try await ShortCommand.run(TallyBinaries.load, arguments, timeout: timeout)
    }

    func json(_ result: ShortCommand.Result) throws -> [String: Any] {
        let object = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return try #require(object, "a JSON report: \(result.output)\n\(result.errorOutput)")
    }

    @Test func overloadIsCountedAsErrorsAndFailsTheErrorRateThreshold() async throws {
        // Capacity: one connection, 20 ms a request (50/s); the queue holds 2. Most of 400/s are refused (open loop:
        // a closed loop would refuse as fast as it can send and take the cores from the tests beside this one).
        let cluster = try await TallyCluster.start(workers: 0, brokerArguments: ["--max-queue", "2"])
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: ["--service", "tally.history", "--concurrency", "1", "--simulated-latency", "20ms"])
        let result = try await load([
            "--broker", cluster.endpoint, "--mix", "system.ping", "--rate", "400", "--duration", "2s", "--json",
            "--max-error-rate", "10%",
        ])
        worker.terminate()
        await worker.waitForExit()
        await cluster.stop()

        #expect(result.status == 4, "a failed threshold: \(result.errorOutput)")
        #expect(result.errorOutput.contains("threshold failed: --max-error-rate"), "\(result.errorOutput)")
        let report = try json(result)
        let tally = try #require(report["tally"] as? [String: Any])
        let succeeded = try #require(tally["succeeded"] as? Int)
        let failed = try #require(tally["failed"] as? Int)
        let errors = tally["errors"] as? [String: Int] ?? [:]
        print("overloaded tally-load: succeeded \(succeeded), errors \(errors)")
        #expect(succeeded > 10 && failed > succeeded, "most requests refused, some served: \(tally)")
        #expect(errors["overloaded"] == failed, "failures by code: \(errors)")
        let elapsed = try #require(tally["elapsed_seconds"] as? Double)
        let perSecond = try #require(tally["successes_per_second"] as? Double)
        #expect(abs(perSecond - Double(succeeded) / elapsed) < 1, "throughput counts successes only")
        #expect(perSecond < 60, "one connection at 20 ms a request serves at most 50/s: \(perSecond)")
        // Latencies of successes are at least the worker's 20 ms; the refusals' are apart, and quick.
        let latency = try #require(tally["latency"] as? [String: Any])
        #expect((latency["min_us"] as? Int ?? 0) >= 19_000, "\(latency)")
        let errorLatency = try #require(tally["error_latency"] as? [String: Any])
        #expect((errorLatency["p50_us"] as? Int ?? .max) < (latency["p50_us"] as? Int ?? 0), "\(errorLatency)")
        #expect((tally["error_rate"] as? Double ?? 0) > 0.5)
        #expect(report["passed"] as? Bool == false)
    }

    @Test func aMixHasARowPerMethodInMillisecondsAndADistributionFile() async throws {
        let cluster = try await TallyCluster.start(workers: 1)
        let distribution = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tally-load-\(UUID().uuidString).hgrm")
        defer { try? FileManager.default.removeItem(at: distribution) }
        let result = try await load([
            "--broker", cluster.endpoint, "--mix", "system.ping=2,streak.summary@30d=1", "--requests", "300",
            "--in-flight", "8", "--max-error-rate", "0", "--max-p99", "10s", "--hgrm", distribution.path,
        ])
        await cluster.stop()

        #expect(result.status == 0, "thresholds met: \(result.output)\n\(result.errorOutput)")
        let lines = result.output.split(separator: "\n").map(String.init)
        for row in ["system.ping ", "streak.summary@30d ", "all "] {
            #expect(lines.filter { $0.hasPrefix(row) }.count == 2, "a counts row and a latency row for \(row)")
        }
        #expect(result.output.contains("latency of successes, ms"))
        #expect(!result.output.contains("µs") && !result.output.contains("latency of errors"), "\(result.output)")
        #expect(result.output.contains("threshold --max-error-rate: error rate 0% ≤ 0%: passed"))
        let allRow = try #require(lines.first { $0.hasPrefix("all ") }?.split(separator: " "))
        #expect(allRow[1] == "300" && allRow[2] == "300", "300 sent, 300 succeeded: \(allRow)")
        let hgrm = try String(contentsOf: distribution, encoding: .utf8)
        #expect(hgrm.contains("Percentile") && hgrm.contains("Total count    =          300]"), "\(hgrm)")
    }

    /// `workout.detail` was refused by `--mix` although workers serve it; its generated requests ask for a workout
    /// of the history they send, so every one gets a result.
    @Test func workoutDetailIsGeneratedAndAnswered() async throws {
        let cluster = try await TallyCluster.start(workers: 1)
        let result = try await load([
            "--broker", cluster.endpoint, "--mix", "workout.detail@30d=1,workout.detail@1y=1", "--requests", "60",
            "--in-flight", "4", "--max-error-rate", "0", "--json",
        ])
        await cluster.stop()

        #expect(result.status == 0, "every request answered with a result: \(result.errorOutput)")
        let report = try json(result)
        let rows = try #require(report["methods"] as? [[String: Any]])
        #expect(Set(rows.compactMap { $0["method"] as? String }) == ["workout.detail@30d", "workout.detail@1y"])
        for row in rows {
            #expect((row["succeeded"] as? Int ?? 0) > 0 && (row["errors"] as? [String: Int] ?? [:]).isEmpty, "\(row)")
        }
        #expect(rows.reduce(0) { $0 + ($1["succeeded"] as? Int ?? 0) } == 60, "\(rows)")
    }

    @Test func aBrokerThatIsDownGivesNoAnswersAndNoLatencies() async throws {
        let nobody = "tcp://127.0.0.1:\(try HeldPort().port)"  // free a moment ago: nothing listens there
        let text = try await load([
            "--broker", nobody, "--duration", "1s", "--timeout", "300ms", "--in-flight", "4",
        ])
        #expect(text.status == 3, "requests without an answer: \(text.errorOutput)")
        let latencyRow = text.output.split(separator: "\n").first { $0.hasPrefix("system.ping") && $0.contains("n/a") }
        #expect(latencyRow?.split(separator: " ").dropFirst(2).allSatisfy { $0 == "n/a" } == true, "\(text.output)")

        let json = try json(
            try await load([
                "--broker", nobody, "--requests", "4", "--timeout", "300ms", "--in-flight", "4", "--json",
                "--max-p99", "1s",
            ]))
        let tally = try #require(json["tally"] as? [String: Any])
        #expect(tally["latency"] is NSNull && tally["error_latency"] is NSNull, "\(tally)")
        #expect(tally["unanswered"] as? Int == 4 && tally["error_rate"] as? Double == 1)
        let threshold = try #require((json["thresholds"] as? [[String: Any]])?.first)
        #expect(threshold["passed"] as? Bool == false && threshold["measured"] is NSNull, "\(threshold)")
    }

    @Test func protocolExamplesAreSentAsWritten() async throws {
        let cluster = try await TallyCluster.start(workers: 1)
        let examples = try ProtocolExample.all()
        let result = try await load([
            "--broker", cluster.endpoint, "--body",
            ProtocolExample.protocolDirectory.appendingPathComponent("examples").path,
            "--requests", "\(examples.count * 3)", "--in-flight", "4", "--json",
        ])
        await cluster.stop()

        #expect(result.status == 0, "\(result.errorOutput)")
        let report = try json(result)
        let tally = try #require(report["tally"] as? [String: Any])
        #expect(tally["unanswered"] as? Int == 0 && tally["sent"] as? Int == examples.count * 3)
        // What each method's examples expect (a result, or which error codes), against what each row got.
        var expectedCodes: [String: Set<String>] = [:]
        var expectsResults: Set<String> = []
        for example in examples {
            let request = try JSONSerialization.jsonObject(with: Data(example.requestBody)) as? [String: Any]
            let method = request?["method"] as? String ?? "(no method)"
            if let code = example.expectedResponse["error"]?["code"]?.string {
                expectedCodes[method, default: []].insert(code)
            } else {
                expectsResults.insert(method)
            }
        }
        // The example without an id is sent with one (replies are matched by id), so its ping succeeds.
        expectsResults.insert("system.ping")
        let methods = try #require(report["methods"] as? [[String: Any]])
        #expect(Set(methods.compactMap { $0["method"] as? String }) == Set(expectedCodes.keys).union(expectsResults))
        for row in methods {
            let method = row["method"] as? String ?? ""
            let codes = Set((row["errors"] as? [String: Int] ?? [:]).keys)
            #expect(codes.isSubset(of: expectedCodes[method, default: []]), "\(method): \(codes)")
            if !expectsResults.contains(method) {
                #expect(row["succeeded"] as? Int == 0, "\(method) only has error examples: \(row)")
            }
        }
        #expect((tally["failed"] as? Int ?? 0) > 0 && (tally["succeeded"] as? Int ?? 0) > 0)
    }

    @Test(arguments: [
        (["--duration", "0"], "--duration"), (["--duration", "1m30"], "--duration"),
        (["--max-error-rate", "2"], "--max-error-rate"), (["--max-p99", "0ms"], "--max-p99"),
        (["--mix", "system.ping", "--body", "Protocol/examples"], "--mix or --body"),
        (["--body", "/nonexistent/requests"], "--body"), (["--mix", "system.pong"], "--mix"),
        (["--timeout", "0"], "--timeout"), (["--hgrm", "/nonexistent/folder/run.hgrm"], "--hgrm"),
        (["--max-p95", "abc"], "--max-p95"), (["--max-p999", "=10ms"], "--max-p999"),
        (["--max-p99", "system.pong=10ms"], "system.pong"), (["--max-unanswered", "0.5"], "--max-unanswered"),
        (["--max-error-rate", "system.ping=2"], "--max-error-rate"), (["--stages", "10s"], "--stages"),
        (["--stages", "10s:5", "--duration", "5s"], "--stages or --duration"), (["--rate", "0"], "--rate"),
        (["--stages", "0s:5"], "--stages"), (["--rate", "0", "--stages", "5s:0"], "--stages"),
        (["--curve-server-key", "/nonexistent/broker.pub"], "--curve-secret-key"),
    ])
    func badOptionsAreUsageErrorsNamingTheOption(arguments: [String], option: String) async throws {
        let result = try await load(["--broker", "tcp://127.0.0.1:1"] + arguments, timeout: .seconds(20))
        #expect(result.status == 64, "\(arguments): \(result.errorOutput)")
        #expect(result.errorOutput.contains(option), "\(result.errorOutput)")
    }
}
