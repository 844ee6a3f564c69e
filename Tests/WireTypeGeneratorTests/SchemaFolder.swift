import Foundation

@testable import WireTypeGenerator

/// The schema index of a folder made of `files` (path → JSON text), written for the test and removed once read.
func schemaIndex(of files: [String: String]) throws -> SchemaIndex {
    let folder = FileManager.default.temporaryDirectory.appending(path: "schemas-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (path, text) in files {
        let file = folder.appending(path: path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }
    return try SchemaIndex(root: folder)
}
