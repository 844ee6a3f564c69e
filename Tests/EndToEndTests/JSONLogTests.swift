import Foundation
import TallyClient
import TallyTesting
import Testing
import ZeroMQ

/// `--log-format json` on real processes: every line a broker and a worker write to standard error is one JSON
/// object with the documented keys, also when a client puts quotes, newlines, control characters and emoji into
/// what gets logged, and also for the error that ends a process.
@Suite(.realProcesses) struct JSONLogTests {
    /// A request id and a service name as a hostile client would choose them (decoded: what gets logged).
    static let hostileID = "q\"uote\\back\nline\ttab \u{1} ✓ 🏃‍♀️"
    static let hostileService = "we\"ird\nsvc \u{1B}[31m ✓"

    @Test func everyLineOfBrokerAndWorkerIsJSONWhateverTheMetadataHolds() async throws {
        let cluster = try await TallyCluster.start(
            workers: 1, brokerArguments: ["--log-format", "json", "--queue-timeout", "200ms"],
            workerArguments: ["--log-format", "json"],
            logLevel: "trace")
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client))
        await client.stop()

        let endpoint = cluster.endpoint
        let replies = try await onOwnThread {
            let raw = try RawMDPClient(context: try Context(), endpoint: endpoint)
            // The id as JSON escapes in the body: the worker decodes it and logs the decoded string.
            let escapedID = #"q\"uote\\back\nline\ttab \u0001 ✓ 🏃‍♀️"#
            try raw.request(
                service: "tally.history", body: #"{"version":1,"id":"\#(escapedID)","method":"system.ping"}"#)
            let ping = try raw.receive()
            // A request names any service it likes; with no worker for it, the broker answers it `unavailable` after
            // the queue timeout and logs the name.
            try raw.request(service: Self.hostileService, body: RawMDPClient.ping(id: "to-nobody"))
            let unavailable = try raw.receive()
            return [ping, unavailable]
        }
        #expect(replies.allSatisfy { $0 != nil }, "both answered")
        await cluster.stop()
        #expect(await cluster.broker.waitForExit() == 0)
        #expect(await cluster.workers[0].waitForExit() == 0)

        let brokerLines = try Self.parseLines(cluster.broker.errorOutput, from: "broker")
        let workerLines = try Self.parseLines(cluster.workers[0].errorOutput, from: "worker")
        #expect(brokerLines.count >= 5 && workerLines.count >= 5, "trace level logs plenty")
        #expect(brokerLines.allSatisfy { $0["logger"] as? String == "tally.broker" })
        #expect(workerLines.allSatisfy { $0["logger"] as? String == "tally.worker" })
        #expect(
            workerLines.contains {
                $0["message"] as? String == "request answered" && $0["tally.request.id"] as? String == Self.hostileID
            },
            "the worker's line about the request carries its id exactly: \(workerLines.map { $0["message"] ?? "" })")
        #expect(
            brokerLines.contains { line in line.values.contains { $0 as? String == Self.hostileService } },
            "a broker line about the request carries the service name exactly")
        #expect(brokerLines.contains { $0["message"] as? String == "broker stopped" }, "lines up to the very end")
    }

    @Test func theFormatComesFromTheEnvironmentOrTheConfigurationFile() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tally-log-format-\(UUID().uuidString).json")
        try Data(#"{"log-format": "json"}"#.utf8).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let cluster = try await TallyCluster.start(
            workers: 0, brokerArguments: ["--config", config.path], logLevel: "info")
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint, logLevel: "info", environment: ["TALLY_LOG_FORMAT": "json"])
        // Its ready line comes before its signal handlers: a SIGTERM right after it could kill it outright.
        #expect(await eventually { worker.errorOutput.contains("worker started") })
        worker.terminate()
        #expect(await worker.waitForExit() == 0)
        await cluster.stop()
        #expect(try Self.parseLines(cluster.broker.errorOutput, from: "broker (config file)").count >= 2)
        #expect(try Self.parseLines(worker.errorOutput, from: "worker (environment)").count >= 2)

        // The flag wins over the environment: text again.
        let textWorker = try ManagedProcess(
            TallyBinaries.worker, ["--broker", cluster.endpoint, "--log-format", "text"], name: "text-worker",
            environment: ["TALLY_LOG_FORMAT": "json"])
        #expect(await eventually { textWorker.errorOutput.contains("worker started") })
        textWorker.terminate()
        #expect(await textWorker.waitForExit() == 0)
        #expect(!textWorker.errorOutput.isEmpty && !textWorker.errorOutput.hasPrefix("{"), "\(textWorker.errorOutput)")
    }

    @Test func theErrorThatEndsAProcessIsAJSONLineToo() async throws {
        let result = try await ShortCommand.run(
            TallyBinaries.broker, ["--bind", "tcp://127.0.0.1:0", "--log-format", "json", "--max-queue", "0"])
        #expect(result.status == 64, "a usage error keeps its status: \(result.errorOutput)")
        let lines = try Self.parseLines(result.errorOutput, from: "failing broker")
        let last = try #require(lines.last)
        #expect(last["level"] as? String == "critical")
        #expect((last["message"] as? String)?.contains("--max-queue") == true, "\(last)")
    }

    /// tally-gateway's lines, at trace level under calls that succeed and fail, and the error that ends it.
    @Test func everyLineOfTheGatewayIsJSONToo() async throws {
        try await withCluster(workers: 1) { cluster in
            let gateway = try await GatewayProcess.start(
                brokers: [cluster.endpoint], arguments: ["--log-format", "json", "--log-level", "trace"])
            let connection = try gateway.connect()
            #expect(try await connection.post("/v1/system.ping", []).status == 200)
            #expect(try await connection.post("/v1/streak.summary", Array(#"{"q\"":1}"#.utf8)).status == 400)
            #expect(try await connection.post("/v1/we%22ird%0A%1B[31m", []).status == 404)
            gateway.process.terminate()
            #expect(await gateway.process.waitForExit() == 0)
            let lines = try Self.parseLines(gateway.process.errorOutput, from: "gateway")
            #expect(lines.count >= 3, "trace level logs plenty")
            #expect(lines.allSatisfy { $0["logger"] as? String == "tally.gateway" })
        }
        let failing = try await ShortCommand.run(
            TallyBinaries.gateway, ["--listen", "127.0.0.1:0", "--log-format", "json", "--max-body-bytes", "1"])
        #expect(failing.status == 64, "a usage error keeps its status: \(failing.errorOutput)")
        let last = try #require(try Self.parseLines(failing.errorOutput, from: "failing gateway").last)
        #expect(last["level"] as? String == "critical")
        #expect((last["message"] as? String)?.contains("--max-body-bytes") == true, "\(last)")
    }

    @Test(arguments: [
        (["--log-format", "yaml"], [String: String](), "--log-format"),
        ([String](), ["TALLY_LOG_FORMAT": "xml"], "TALLY_LOG_FORMAT"),
    ])
    func anUnknownFormatIsAUsageErrorNamingItsSource(
        arguments: [String], environment: [String: String], named: String
    ) async throws {
        for binary in [TallyBinaries.broker, TallyBinaries.worker, TallyBinaries.gateway] {
            let result = try await ShortCommand.run(binary, arguments, environment: environment)
            #expect(result.status == 64, "\(binary.lastPathComponent): \(result.errorOutput)")
            #expect(result.errorOutput.contains(named), "\(result.errorOutput)")
        }
    }

    /// Every line of `text` as a JSON object with the documented keys and types; a line that is not is a failure
    /// naming it.
    static func parseLines(_ text: String, from process: String) throws -> [[String: Any]] {
        let timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/
        let levels: Set = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
        var objects: [[String: Any]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                Issue.record("\(process): a line that is not a JSON object: \(line)")
                continue
            }
            let stamp = object["timestamp"] as? String ?? ""
            #expect(stamp.wholeMatch(of: timestamp) != nil, "\(process): timestamp of \(line)")
            #expect(levels.contains(object["level"] as? String ?? ""), "\(process): level of \(line)")
            for key in ["logger", "message", "source", "file"] {
                #expect(object[key] is String, "\(process): \(key) of \(line)")
            }
            #expect(object["line"] is Int, "\(process): line of \(line)")
            objects.append(object)
        }
        #expect(text.isEmpty || text.hasSuffix("\n"), "\(process): the last line is whole")
        return objects
    }
}
