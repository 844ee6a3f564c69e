import Foundation
import TallyJSONCoding

/// One file of Protocol/examples: a request, the service it goes to and the response it must get (`"$any"`
/// matches any value). Replayed against the dispatcher in unit tests and against a real cluster end to end.
package struct ProtocolExample: Sendable, CustomStringConvertible {
    package let file: URL
    package let service: String
    /// The request exactly as written in the example, re-serialised.
    package let requestBody: [UInt8]
    package let expectedResponse: JSONValue

    package var description: String { "\(file.deletingLastPathComponent().lastPathComponent)/\(file.lastPathComponent)" }

    /// The repository's Protocol/ directory (found from this source file, so it works from any working directory).
    package static let protocolDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Protocol")

    /// Every example, sorted by path. An example file without service, request or response is a test failure
    /// of its own: it is loaded with what it has and `problems` names what is missing.
    package static func all() throws -> [ProtocolExample] {
        let root = protocolDirectory.appendingPathComponent("examples")
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" } ?? []
        return try files.sorted { $0.path < $1.path }.map(load)
    }

    /// Reads one example file.
    package static func load(_ file: URL) throws -> ProtocolExample {
        let data = try Data(contentsOf: file)
        let example = try JSONDecoder().decode(JSONValue.self, from: data)
        let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard case .string(let service)? = example["service"], let expected = example["response"],
            let request = document?["request"]
        else {
            throw MalformedExample(file: file)
        }
        let body = try JSONSerialization.data(withJSONObject: request)
        return ProtocolExample(file: file, service: service, requestBody: Array(body), expectedResponse: expected)
    }

    /// Differences between a reply and the expected response (empty: it matches).
    package func differences(inReply reply: [UInt8]) throws -> [String] {
        try JSONDecoder().decode(JSONValue.self, from: Data(reply)).differences(from: expectedResponse)
    }
}

/// An example file that lacks `service`, `request` or `response`.
package struct MalformedExample: Error, CustomStringConvertible {
    package let file: URL
    package var description: String { "\(file.lastPathComponent) needs service, request and response" }
}
