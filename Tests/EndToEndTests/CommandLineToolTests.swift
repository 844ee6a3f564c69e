import Foundation
import TallyTesting
import Testing

/// The `tally` CLI against a real cluster: every Protocol example sent as it is, methods named by area, and one
/// exit-status scheme across subcommands (0 success, 2 Tally answered with an error or a service down, 3 no
/// answer, 64 usage error).
@Suite(.realProcesses) struct CommandLineToolTests {
    func tally(_ arguments: [String]) async throws -> ShortCommand.Result {
        try await ShortCommand.run(TallyBinaries.cli, arguments, timeout: .seconds(30))
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
}
