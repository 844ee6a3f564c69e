import Foundation

/// `WireTypeGenerator protocol SCHEMAS-FOLDER WIRE-TYPES-FILE METHOD-TABLE-FILE`
/// `WireTypeGenerator client SCHEMAS-FOLDER TYPED-CALLS-FILE`
/// `WireTypeGenerator openapi SCHEMAS-FOLDER EXAMPLES-FOLDER VERSION-FILE STATUSES-FILE DOCUMENT-FILE`
///
/// For TallyProtocol (`protocol`): the Swift twins of the protocol's wire objects, as the schemas in SCHEMAS-FOLDER
/// declare them (`"x-swift-struct": "HistoryDashboard.HourResult"` on an object with `properties`), each method's
/// type and params (their standard and direct reads), and the method table `TallyMethods.v1`, one entry per
/// `methods/NAME.params.schema.json`. For TallyClient (`client`): a typed call
/// per domain method. Run by the WireTypes build plugin; a member's name, type, optionality, wire name and
/// description, and a method's existence, are then written once, in the schemas, for the Swift types as for the
/// Python client's models. For TallyGateway (`openapi`): its OpenAPI 3.1 document (`OpenAPIDocument`).
enum Generation {
    static let usage = """
        usage: WireTypeGenerator protocol SCHEMAS-FOLDER WIRE-TYPES-FILE METHOD-TABLE-FILE
               WireTypeGenerator client SCHEMAS-FOLDER TYPED-CALLS-FILE
               WireTypeGenerator openapi SCHEMAS-FOLDER EXAMPLES-FOLDER VERSION-FILE STATUSES-FILE DOCUMENT-FILE

        """

    /// Generates as `arguments` say; a refusal (its reason on standard error) ends the process with status 1, a
    /// wrong call with 64.
    static func run(_ arguments: [String]) {
        let arguments = Array(arguments.dropFirst())
        do {
            switch (arguments.first, arguments.count) {
            case ("protocol", 4):
                let index = try SchemaIndex(root: URL(fileURLWithPath: arguments[1]))
                try write(try SwiftWriter.file(try WireStructReader(index: index).structs()), to: arguments[2])
                try write(SwiftWriter.methodTable(try ProtocolMethod.all(in: index)), to: arguments[3])
            case ("client", 3):
                let index = try SchemaIndex(root: URL(fileURLWithPath: arguments[1]))
                try write(SwiftWriter.clientCalls(try ProtocolMethod.all(in: index)), to: arguments[2])
            case ("openapi", 6):
                try write(
                    SwiftWriter.openAPIDocument(try OpenAPIDocument.read(arguments).json().jsonText), to: arguments[5])
            default:
                FileHandle.standardError.write(Data(usage.utf8))
                exit(64)
            }
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Writes `text` to `path` unless the file holds it already: unchanged output keeps its date, so that nothing
    /// downstream rebuilds.
    static func write(_ text: String, to path: String) throws {
        let output = URL(fileURLWithPath: path)
        if (try? String(contentsOf: output, encoding: .utf8)) != text {
            try Data(text.utf8).write(to: output)
        }
    }
}
