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

    /// Result lists that write themselves (`JSONFastEncodable`) write the bytes their `encode(to:)` writes: every
    /// example answer of the methods that have such lists, decoded and encoded again both ways.
    @Test(
        arguments: examples.filter {
            ["streak.summary", "history.month", "history.dashboard"].contains(Self.method(of: $0))
        })
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
            #expect(
                try slow.encodeToBytes(result) == reply.bytes, "the synthesized members are the reply's: \(example)")
        }
        switch Self.method(of: example) {
        case "streak.summary": try parity(StreakSummary.Result.self)
        case "history.month": try parity(HistoryMonth.Result.self)
        default: try parity(HistoryDashboard.Result.self)
        }
    }

    /// Examples live in a folder named after their method.
    static func method(of example: ProtocolExample) -> String {
        example.file.deletingLastPathComponent().lastPathComponent
    }

    @Test func examplesMatchTheirSchemas() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", ProtocolExample.protocolDirectory.appendingPathComponent("tools/validate_examples.py").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "Protocol/tools/validate_examples.py:\n\(text)")
    }
}
