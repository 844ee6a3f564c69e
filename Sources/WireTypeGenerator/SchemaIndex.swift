import Foundation
import TallyJSONCoding

/// Every schema file under the protocol's schema folder, by path relative to it, and the resolution of `$ref`s
/// between them (`common.schema.json#/$defs/local_date`, `#/$defs/run`, `../history.schema.json#/$defs/...`).
struct SchemaIndex {
    /// A schema node and the file it is written in (which its own `$ref`s are relative to).
    struct Located {
        let node: JSONValue
        let file: String
        /// A JSON pointer to the node within its file, for messages.
        let pointer: String
    }

    private(set) var documents: [String: JSONValue] = [:]

    /// Reads every `*.schema.json` below `root`.
    init(root: URL) throws {
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { $0.lastPathComponent.hasSuffix(".schema.json") } ?? []
        let rootPath = root.standardizedFileURL.path
        for file in files {
            let path = String(file.standardizedFileURL.path.dropFirst(rootPath.count).drop { $0 == "/" })
            let bytes = try [UInt8](Data(contentsOf: file))
            documents[path] = try TallyJSONDecoder().decode(JSONValue.self, from: bytes)
        }
    }

    /// The node a `$ref` written in `file` names.
    func resolve(_ reference: String, from file: String) throws(GeneratorError) -> Located {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let target = parts[0].isEmpty ? file : Self.join(directory(of: file), String(parts[0]))
        guard var node = documents[target] else {
            throw GeneratorError("\(file): $ref \(reference) names no schema file (\(target))")
        }
        let pointer = parts.count > 1 ? String(parts[1]) : ""
        for token in pointer.split(separator: "/") {
            let name = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let index = Int(name), let elements = node.elements, elements.indices.contains(index) {
                node = elements[index]
            } else if let member = node[name] {
                node = member
            } else {
                throw GeneratorError("\(file): $ref \(reference) names nothing in \(target)")
            }
        }
        return Located(node: node, file: target, pointer: pointer)
    }

    private func directory(of file: String) -> String {
        file.split(separator: "/").dropLast().joined(separator: "/")
    }

    /// `directory/relative`, with `..` steps taken.
    private static func join(_ directory: String, _ relative: String) -> String {
        var parts = directory.split(separator: "/").map(String.init)
        for part in relative.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}

/// Why the schemas cannot be turned into Swift: the message names the file and what is wrong there.
struct GeneratorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
