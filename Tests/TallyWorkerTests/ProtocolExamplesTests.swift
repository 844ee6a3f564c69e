import Foundation
import Logging
import TallyJSONCoding
import TallyProtocol
import TallyTesting
import TallyWorker
import Testing

/// Replays every example of Protocol/examples against the worker's dispatcher with all methods registered,
/// and checks the examples against their JSON Schemas: the spec and the code cannot drift apart.
@Suite struct ProtocolExamplesTests {
    static let examples: [ProtocolExample] = (try? ProtocolExample.all()) ?? []

    @Test func thereAreExamples() throws {
        #expect(try ProtocolExample.all().count >= 4)
    }

    @Test(arguments: examples)
    func replay(_ example: ProtocolExample) throws {
        let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "examples/1", version: "test"))
            .dispatcher(limits: RequestLimits())
        let reply = dispatcher.respond(
            to: example.requestBody, service: example.service, logger: Logger(label: "examples"))
        let differences = try example.differences(inReply: reply.bytes)
        #expect(differences.isEmpty, "\(example):\n\(differences.joined(separator: "\n"))")
    }

    /// Results write themselves (`JSONFastEncodable`: every result struct, and the envelope around them) to the bytes
    /// their `encode(to:)` writes: every example answer, decoded and encoded again both ways.
    @Test(arguments: examples)
    func fastPathsWriteWhatTheContainersWrite(_ example: ProtocolExample) throws {
        let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "examples/1", version: "test"))
            .dispatcher(limits: RequestLimits())
        let reply = dispatcher.respond(
            to: example.requestBody, service: example.service, logger: Logger(label: "examples"))
        guard reply.errorCode == nil else { return }
        var slow = TallyJSON.resultEncoder()
        slow.usesFastPaths = false
        func parity<Result: Codable & Sendable>(_ type: Result.Type) throws {
            let result = try TallyJSONDecoder().decode(ResponseEnvelope<Result>.self, from: reply.bytes)
            #expect(try TallyJSON.resultEncoder().encodeToBytes(result) == slow.encodeToBytes(result), "\(example)")
            // As JSON values: a map in a result (`workout.calendar`'s days by date) comes back in another hash order.
            let again = try JSONSerialization.jsonObject(with: Data(slow.encodeToBytes(result))) as? NSDictionary
            let original = try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? NSDictionary
            #expect(again != nil && again == original, "the synthesized members are the reply's: \(example)")
        }
        switch Self.method(of: example) {
        case "streak.summary": try parity(StreakSummary.Result.self)
        case "history.month": try parity(HistoryMonth.Result.self)
        case "history.months": try parity(HistoryMonths.Result.self)
        case "history.dashboard": try parity(HistoryDashboard.Result.self)
        case "workout.calendar": try parity(WorkoutCalendar.Result.self)
        case "workout.day": try parity(WorkoutDay.Result.self)
        case "workout.detail": try parity(WorkoutDetail.Result.self)
        case "system.describe": try parity(SystemDescribe.Result.self)
        case "system.ping": try parity(SystemPing.Result.self)
        default: Issue.record("\(example): a method the test does not know")
        }
    }

    /// An error in the envelope of a result that writes itself goes through its containers, inside the envelope's
    /// fast path, to the bytes the containers write for the whole envelope.
    @Test func anErrorInAnEnvelopeThatWritesItselfIsWrittenAsTheContainersWriteIt() throws {
        var slow = TallyJSON.resultEncoder()
        slow.usesFastPaths = false
        let details = ErrorDetails(field: "params.date", problem: "is not a date")
        for id in ["p-1", nil] as [String?] {
            for error in [TallyError(.invalidParams, "bad date", details: details), TallyError(.internal, "x")] {
                let envelope = ResponseEnvelope<SystemPing.Result>(id: id, outcome: .failure(error))
                let fast = try TallyJSON.resultEncoder().encodeToBytes(envelope)
                #expect(fast == (try slow.encodeToBytes(envelope)))
                let decoded = try TallyJSONDecoder().decode(ResponseEnvelope<SystemPing.Result>.self, from: fast)
                #expect(decoded.id == id)
                guard case .failure(let back) = decoded.outcome else {
                    Issue.record("an error comes back as an error")
                    continue
                }
                #expect(back == error)
            }
        }
    }

    /// Examples live in a folder named after their method.
    static func method(of example: ProtocolExample) -> String {
        example.file.deletingLastPathComponent().lastPathComponent
    }

    /// The validator runs for many seconds on a loaded machine: waited for without holding one of the few threads
    /// every other test's tasks run on.
    @Test func examplesMatchTheirSchemas() async throws {
        let script = ProtocolExample.protocolDirectory.appendingPathComponent("tools/validate_examples.py")
        let run = try await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path], timeout: .seconds(300))
        #expect(run.succeeded, "Protocol/tools/validate_examples.py:\n\(run.output)\(run.errorOutput)")
    }
}
