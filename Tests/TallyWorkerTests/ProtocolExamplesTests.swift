import Foundation
import Logging
import TallyProtocol
import TallyWorker
import Testing

/// Replays every example of Protocol/examples against the worker's dispatcher with all methods registered,
/// and checks the examples against their JSON Schemas: the spec and the code cannot drift apart.
@Suite struct ProtocolExamplesTests {
    static let protocolDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol")

    static let examples: [URL] = {
        let root = protocolDirectory.appendingPathComponent("examples")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" } ?? []
        return files.sorted { $0.path < $1.path }
    }()

    @Test func thereAreExamples() {
        #expect(Self.examples.count >= 4)
    }

    @Test(arguments: examples)
    func replay(_ file: URL) throws {
        let example = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
        guard case .string(let service)? = example["service"], let request = example["request"],
            let expected = example["response"]
        else {
            Issue.record("\(file.lastPathComponent) needs service, request and response")
            return
        }
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let body = try JSONSerialization.data(withJSONObject: document?["request"] as Any)
        let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "examples/1", version: "test"))
            .dispatcher(limits: RequestLimits())
        let reply = dispatcher.respond(to: Array(body), service: service, logger: Logger(label: "examples"))
        let actual = try JSONDecoder().decode(JSONValue.self, from: Data(reply.bytes))
        let differences = actual.differences(from: expected)
        #expect(differences.isEmpty, "\(file.lastPathComponent) (request \(request)):\n\(differences.joined(separator: "\n"))")
    }

    @Test func examplesMatchTheirSchemas() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.protocolDirectory.appendingPathComponent("tools/validate_examples.py").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "Protocol/tools/validate_examples.py:\n\(text)")
    }
}
