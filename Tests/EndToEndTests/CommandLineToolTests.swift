import Foundation
import TallyTesting
import Testing

/// The `tally` CLI against a real cluster: every Protocol example sent as it is, methods named by area, params
/// inline, the call's deadline sent, `--json` on every subcommand, and one exit-status scheme across them (0
/// success, 2 Tally answered with an error or a service down, 3 no answer, 4 a local error, 64 usage error).
@Suite(.realProcesses) struct CommandLineToolTests {
    func tally(_ arguments: [String]) async throws -> ShortCommand.Result {
        try await ShortCommand.run(TallyBinaries.cli, arguments)
    }

    @Test func everyProtocolExampleIsSentAsItIsAndGetsItsResponse() async throws {
        try await withCluster(workers: 1) { cluster in
            for example in try ProtocolExample.all() {
                let result = try await tally([
                    "call", "--params", example.file.path, "--raw", "--broker", cluster.endpoint,
                ])
                let differences = try example.differences(inReply: Array(result.output.utf8))
                #expect(differences.isEmpty, "\(example): \(differences) \(result.errorOutput)")
                let isError = result.output.contains(#""error":{"#)
                #expect(result.status == (isError ? 2 : 0), "\(example): exit \(String(describing: result.status))")
            }
        }
    }

    @Test func methodsAreNamedByAreaAndAnExampleNamesItsOwn() async throws {
        try await withCluster(workers: 1) { cluster in
            let broker = ["--broker", cluster.endpoint]
            let ping = try await tally(["call", "system.ping"] + broker)
            #expect(
                ping.status == 0 && ping.output.contains(#""server_version""#), "\(ping.output) \(ping.errorOutput)")

            let params = FileManager.default.temporaryDirectory.appendingPathComponent("tally-cli-\(UUID()).json")
            try Data(#"{"time_zone":"UTC","today":"2026-11-23","records":[]}"#.utf8).write(to: params)
            defer { try? FileManager.default.removeItem(at: params) }
            let months = try await tally(["call", "history.months", "--params", params.path] + broker)
            #expect(
                months.status == 0 && months.output.contains(#""result""#), "\(months.output) \(months.errorOutput)")

            for method in ["month", "steps.month", "history"] {
                let usage = try await tally(["call", method] + broker)
                #expect(usage.status == 64, "\(method): \(String(describing: usage.status)) \(usage.errorOutput)")
                #expect(usage.errorOutput.contains("AREA.NAME"), "\(usage.errorOutput)")
            }
            let mismatch = try await tally(
                [
                    "call", "streak.summary", "--params",
                    ProtocolExample.protocolDirectory.appendingPathComponent("examples/system.ping/basic.json").path,
                ] + broker)
            #expect(
                mismatch.status == 64 && mismatch.errorOutput.contains("not streak.summary"), "\(mismatch.errorOutput)")
        }
    }

    @Test func everySubcommandSaysNoAnswerAndTallysAnswersTheSameWay() async throws {
        let cluster = try await TallyCluster.start(workers: 1)
        let broker = ["--broker", cluster.endpoint, "--timeout", "5s"]
        #expect(try await tally(["health"] + broker).status == 0)
        #expect(try await tally(["mmi", "tally.streak"] + broker).status == 0)
        #expect(try await tally(["mmi", "tally.nobody"] + broker).status == 2, "Tally answered: not served")
        #expect(try await tally(["call", "history.nope"] + broker).status == 2, "Tally answered unknown_method")
        #expect(try await tally(["describe"] + broker).status == 0)
        #expect(try await tally(["describe", "--service", "tally.nobody"] + broker).status == 2, "not served")
        await cluster.stop()

        let nobody = ["--broker", "tcp://\(ProcessProbes.freeLoopbackAddress())", "--timeout", "500ms"]
        for command in [["health"], ["mmi", "tally.streak"], ["ping"], ["call", "system.ping"], ["describe"]] {
            let result = try await tally(command + nobody)
            #expect(result.status == 3, "\(command): \(String(describing: result.status)) \(result.errorOutput)")
        }
    }

    /// `tally describe`: every service's methods with the ids of their schemas, as text and as JSON; a service
    /// nobody serves is said to be down, next to the others' answers.
    @Test func describeSaysWhatEachServiceServes() async throws {
        try await withCluster(workers: 1) { cluster in
            let broker = ["--broker", cluster.endpoint]
            let text = try await tally(["describe"] + broker)
            #expect(text.status == 0, "\(text.output) \(text.errorOutput)")
            for line in [
                "tally.history: ", "tally.streak: ", "tally.workout: ", "  history.dashboard  params https://",
                "  streak.summary   params https://tally.example/schemas/methods/streak.summary.params.schema.json",
                "result https://tally.example/schemas/methods/workout.detail.result.schema.json",
            ] {
                #expect(text.output.contains(line), "\(line) in:\n\(text.output)")
            }

            let json = try await tally(
                ["describe", "--json", "--service", "tally.streak", "--service", "nobody"] + broker)
            #expect(json.status == 2, "one service is down: \(json.errorOutput)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: [[String: Any]]])
            let entries = try #require(object["services"])
            #expect(entries.map { $0["service"] as? String } == ["tally.streak", "nobody"])
            let methods = (entries[0]["result"] as? [String: Any])?["methods"] as? [[String: String]]
            #expect(methods?.map { $0["name"] } == ["streak.summary", "system.describe", "system.ping"])
            #expect((entries[1]["error"] as? [String: Any])?["code"] as? String == "unavailable")
        }
    }

    /// `-d` gives the params inline; a call Tally refuses exits 2 with the error response on standard output.
    @Test func paramsGoInlineWithDashD() async throws {
        try await withCluster(workers: 1) { cluster in
            let broker = ["--broker", cluster.endpoint]
            let months = try await tally(
                ["call", "history.months", "-d", #"{"time_zone":"UTC","today":"2026-11-23","records":[]}"#] + broker)
            #expect(months.status == 0, "\(months.output) \(months.errorOutput)")
            #expect(months.output.contains(#""current_month" : "2026-11""#), "\(months.output)")

            let refused = try await tally(["call", "history.months", "--data", "{}"] + broker)
            #expect(refused.status == 2, "\(refused.output) \(refused.errorOutput)")
            let error = try #require(Self.object(refused.output)?["error"] as? [String: Any], "\(refused.output)")
            #expect((error["details"] as? [String: Any])?["field"] as? String == "params.time_zone")

            let notJSON = try await tally(["call", "history.months", "-d", #"{"time_zone":"#] + broker)
            #expect(notJSON.status == 64 && notJSON.errorOutput.contains("not valid JSON"), "\(notJSON.errorOutput)")
            let both = try await tally(["call", "system.ping", "-d", "{}", "--params", "-"] + broker)
            #expect(both.status == 64 && both.errorOutput.contains("not both"), "\(both.errorOutput)")
        }
    }

    /// `tally call` sends `--timeout` from now as the request's deadline: a worker that takes the request after it
    /// answers `deadline_exceeded` without computing it. The worker holds every request 500 ms before its method
    /// sees it; the call gives up after 300 ms. A second call, queued behind the first's attempts on the worker's
    /// only slot, is answered after all of them, so the worker's counts are final when it is.
    @Test func theCallsDeadlineIsSentSoNoWorkerComputesItAfterTheCallGaveUp() async throws {
        let workerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(workers: 0)
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: [
                "--service", "tally.history", "--concurrency", "1", "--simulated-latency", "500ms", "--http",
                workerHTTP,
            ],
            name: "slow")
        let broker = ["--broker", cluster.endpoint]
        let late = try await tally(["call", "system.ping", "--timeout", "300ms"] + broker)
        #expect(late.status == 3, "no answer within 300 ms: \(late.output) \(late.errorOutput)")
        let after = try await tally(["call", "system.ping", "--timeout", "20s"] + broker)
        #expect(after.status == 0, "\(after.output) \(after.errorOutput)")

        let metrics = try #require(await ProcessProbes.metrics(at: workerHTTP))
        let labels = #"service="tally.history",method="system.ping""#
        let expired = ProcessProbes.sample(
            #"tally_worker_requests_total{\#(labels),outcome="deadline_exceeded"}"#, in: metrics)
        let computed = ProcessProbes.sample("tally_worker_computations_total{\(labels)}", in: metrics)
        #expect(expired >= 1, "the late call's attempts reached the worker after its deadline: \(metrics)")
        #expect(computed == 1, "only the second call was computed")
        worker.terminate()
        await worker.waitForExit()
        await cluster.stop()
    }

    /// `--json` on every subcommand prints one JSON document, a failure included, and the exit status tells a
    /// local error (4: nothing was sent) from no answer (3).
    @Test func everySubcommandPrintsOneJSONDocumentAndTellsALocalErrorFromNoAnswer() async throws {
        try await withCluster(workers: 1) { cluster in
            let broker = ["--broker", cluster.endpoint]
            let ping = try await tally(["ping", "--json"] + broker)
            #expect(ping.status == 0, "\(ping.output) \(ping.errorOutput)")
            let pong = try #require(Self.object(ping.output), "\(ping.output)")
            #expect(pong["service"] as? String == "tally.history")
            #expect(((pong["result"] as? [String: Any])?["worker"] as? String)?.isEmpty == false, "\(ping.output)")
            #expect((pong["round_trip_ms"] as? Double ?? 0) > 0, "\(ping.output)")

            let served = try await tally(["mmi", "tally.streak", "--json"] + broker)
            #expect(served.status == 0 && Self.object(served.output)?["available"] as? Bool == true, "\(served.output)")
            let notServed = try await tally(["mmi", "tally.nobody", "--json"] + broker)
            #expect(notServed.status == 2, "\(notServed.errorOutput)")
            #expect(Self.object(notServed.output)?["available"] as? Bool == false, "\(notServed.output)")

            let health = try await tally(["health", "--json"] + broker)
            #expect(health.status == 0, "\(health.output) \(health.errorOutput)")
            let services = try #require(Self.object(health.output)?["services"] as? [[String: Any]], "\(health.output)")
            #expect(services.map { $0["service"] as? String } == ["tally.history", "tally.streak", "tally.workout"])
            #expect(services.allSatisfy { $0["status"] as? String == "ok" && $0["server_version"] is String })

            let keys = try await tally(["keys", "--json"])
            #expect(keys.status == 0 && (Self.object(keys.output)?["public_key"] as? String)?.count == 40)
        }

        let nobody = ["--broker", "tcp://\(ProcessProbes.freeLoopbackAddress())", "--timeout", "500ms"]
        for command in [["ping"], ["mmi", "tally.streak"], ["call", "system.ping"], ["health"], ["describe"]] {
            let result = try await tally(command + ["--json"] + nobody)
            #expect(result.status == 3, "\(command): \(String(describing: result.status)) \(result.errorOutput)")
            let object = try #require(Self.object(result.output), "\(command): \(result.output)")
            let errors =
                object["error"].map { [$0] } ?? (object["services"] as? [[String: Any]])?.compactMap { $0["error"] }
            let codes = (errors ?? []).compactMap { ($0 as? [String: Any])?["code"] as? String }
            #expect(!codes.isEmpty && codes.allSatisfy { $0 == "timeout" }, "\(command): \(result.output)")
        }

        let missingKey = [
            "--curve-secret-key", "/nonexistent/client.key", "--curve-server-key", "/nonexistent/broker.pub",
        ]
        for command in [["ping"], ["call", "system.ping"], ["health"]] {
            let result = try await tally(command + ["--json"] + nobody + missingKey)
            #expect(result.status == 4, "\(command): \(String(describing: result.status)) \(result.errorOutput)")
            let error = Self.object(result.output)?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "invalid_configuration", "\(command): \(result.output)")
            #expect(result.errorOutput.contains("/nonexistent/client.key"), "\(result.errorOutput)")
        }
        let unwritable = try await tally(["keys", "--out", "/nonexistent/directory/client"])
        #expect(unwritable.status == 4, "\(unwritable.errorOutput)")
    }

    static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}
