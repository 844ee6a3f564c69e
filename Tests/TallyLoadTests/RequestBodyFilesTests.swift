import Foundation
import TallyLoad
import TallyTesting
import Testing

/// `tally-load --body`: requests from files, sent as written but for a fresh id.
@Suite struct RequestBodyFilesTests {
    static let examples = ProtocolExample.protocolDirectory.appendingPathComponent("examples")

    func object(_ bytes: [UInt8]) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
    }

    @Test func everyProtocolExampleIsSentAsWrittenWithAFreshID() throws {
        let examples = try ProtocolExample.all()
        let templates = try RequestBodyFiles.load([Self.examples.path])
        #expect(templates.count == examples.count)
        for (example, template) in zip(examples, templates) {
            #expect(template.service == example.service, "\(example)")
            let sent = try object(template.body(id: "load-7")).mutableCopy() as! NSMutableDictionary
            let written = try object(example.requestBody).mutableCopy() as! NSMutableDictionary
            #expect(sent["id"] as? String == "load-7")
            #expect(EnvelopeIDScan.firstMember(template.body(id: "load-7")) == "id", "the id first, for the scanner")
            sent.removeObject(forKey: "id")
            written.removeObject(forKey: "id")
            #expect(sent == written, "\(example): every member but the id as written")
            #expect(template.label == (written["method"] as? String ?? "(no method)"))
        }
    }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bodies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func bareEnvelopesAndLinesOfThemGoToTheirMethodsService() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"version":1,"id":"x","method":"streak.summary","params":{"a":[1,2.5,true,null,"é\"q"]}}"#.utf8)
            .write(to: folder.appendingPathComponent("one.json"))
        try Data(
            """
            {"version":1,"method":"system.ping"}

            {"version":1,"id":"c","method":"workout.day","params":{}}
            {"version":1,"id":"d","method":"history.nope"}
            """.utf8
        ).write(to: folder.appendingPathComponent("captured.jsonl"))
        try Data("not a request".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let templates = try RequestBodyFiles.load([folder.path])
        #expect(templates.map(\.method) == ["system.ping", "workout.day", "history.nope", "streak.summary"])
        #expect(templates.map(\.service) == ["tally.history", "tally.workout", "tally.history", "tally.streak"])
        let params = try object(templates[3].body(id: "n"))["params"] as? NSDictionary
        #expect(params == ["a": [1, 2.5, true, NSNull(), "é\"q"]] as NSDictionary)
        #expect(try object(templates[0].body(id: "fresh"))["id"] as? String == "fresh", "a body without an id gets one")

        let workload = try Workload(bodies: templates, description: "files")
        #expect(workload.labels == ["system.ping", "workout.day", "history.nope", "streak.summary"])
        let sent = (0..<400).map { workload.pick($0).template.method }
        #expect(Set(sent).count == 4, "every body is sent")
    }

    @Test func mistakesNameTheFileAndLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func failure(_ name: String, _ content: String) throws -> String {
            let file = folder.appendingPathComponent(name)
            try Data(content.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            do {
                _ = try RequestBodyFiles.load([file.path])
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        #expect(try failure("a.json", "[1]").contains("a.json: not a JSON object"))
        #expect(try failure("b.json", #"{"service":"tally.history","request":[1]}"#).contains("\"request\" is not"))
        #expect(try failure("c.json", #"{"version":1,"method":"teleport"}"#).contains("method 'teleport'"))
        #expect(try failure("d.jsonl", "{\"method\":\"system.ping\"}\n{oops").contains("d.jsonl:2"))
        #expect(try failure("e.json", #"{"version":1}"#).contains("without a method"))
        let empty = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: WorkloadError.self) { try RequestBodyFiles.load([empty.path]) }
        #expect(throws: WorkloadError.self) { try RequestBodyFiles.load([folder.path + "/missing"]) }
    }
}

/// The name of a body's first member, read naively (enough for bodies built by `RequestTemplate`).
enum EnvelopeIDScan {
    static func firstMember(_ body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        guard text.hasPrefix("{\"") else { return nil }
        return text.dropFirst(2).split(separator: "\"", maxSplits: 1).first.map(String.init)
    }
}
