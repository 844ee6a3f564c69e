import Foundation
import TallyJSONCoding

/// One file of Protocol/examples as the generator reads it: a request, the service it goes to and the response it
/// gets (`"$any"` standing for a value that differs from call to call).
struct ProtocolExampleFile {
    /// The file's name without `.json`: `active-streak`.
    let name: String
    /// Its folder: the method (`streak.summary`), or `errors` for envelopes refused whatever their method.
    let folder: String
    let description: String?
    let request: JSONValue
    let response: JSONValue

    var method: String? { request["method"]?.string }
    var params: JSONValue? { request["params"] }
    var result: JSONValue? { response["result"] }
    var errorCode: String? { response["error"]?["code"]?.string }

    /// Every example below `root`, by folder and name.
    /// - Throws: for a file that is not JSON, or that lacks its request or response.
    static func all(in root: URL) throws -> [ProtocolExampleFile] {
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" } ?? []
        return try files.sorted { $0.path < $1.path }.map { file in
            let document = try TallyJSONDecoder().decode(JSONValue.self, from: [UInt8](Data(contentsOf: file)))
            guard let request = document["request"], let response = document["response"] else {
                throw GeneratorError("\(file.path): an example needs a request and a response")
            }
            return ProtocolExampleFile(
                name: file.deletingPathExtension().lastPathComponent,
                folder: file.deletingLastPathComponent().lastPathComponent,
                description: document["description"]?.string, request: request, response: response)
        }
    }
}
