import Foundation

/// `WireTypeGenerator SCHEMAS-FOLDER OUTPUT-FILE`
///
/// Writes the Swift twins of the protocol's wire objects, as the schemas in SCHEMAS-FOLDER declare them
/// (`"x-swift-struct": "HistoryDashboard.HourResult"` on an object with `properties`), into OUTPUT-FILE. Run by the
/// WireTypes build plugin for TallyProtocol; a member's name, type, optionality, wire name and description are then
/// written once, in the schema, for the Swift types as for the Python client's models.
enum Generation {
    /// Generates as `arguments` say; a refusal (its reason on standard error) ends the process with status 1, a
    /// wrong call with 64.
    static func run(_ arguments: [String]) {
        guard arguments.count == 3 else {
            FileHandle.standardError.write(Data("usage: WireTypeGenerator SCHEMAS-FOLDER OUTPUT-FILE\n".utf8))
            exit(64)
        }
        do {
            let index = try SchemaIndex(root: URL(fileURLWithPath: arguments[1]))
            let structs = try WireStructReader(index: index).structs()
            let text = try SwiftWriter.file(structs)
            let output = URL(fileURLWithPath: arguments[2])
            // Unchanged output keeps its date, so that nothing downstream rebuilds.
            if (try? String(contentsOf: output, encoding: .utf8)) != text {
                try Data(text.utf8).write(to: output)
            }
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    }
}
