import Foundation
import PackagePlugin

/// Generates, on every build in which a schema changed, from Protocol/schemas (`WireTypeGenerator`): for
/// TallyProtocol its wire structs and the method table `TallyMethods.v1`, for TallyClient its typed calls, for
/// TallyGateway its OpenAPI document (from the examples too). The schemas are the contract, and the Swift types, the
/// list of methods, the calls and the document are their twin rather than a second copy of each member's name, type
/// and wire name, or of each method.
@main
struct WireTypes: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let schemas = context.package.directoryURL.appending(path: "Protocol/schemas")
        let files = Self.files(under: schemas, endingIn: ".schema.json")
        let generator = try context.tool(named: "WireTypeGenerator").url
        let work = context.pluginWorkDirectoryURL
        if target.name == "TallyClient" {
            let calls = work.appending(path: "TypedCalls.swift")
            return [
                .buildCommand(
                    displayName: "Generating TallyClient's typed calls from Protocol/schemas",
                    executable: generator, arguments: ["client", schemas.path, calls.path],
                    inputFiles: files, outputFiles: [calls])
            ]
        }
        if target.name == "TallyGateway" {
            let examples = context.package.directoryURL.appending(path: "Protocol/examples")
            let version = context.package.directoryURL.appending(path: "VERSION")
            let statuses = context.package.directoryURL.appending(path: "Protocol/http/error-statuses.json")
            let document = work.appending(path: "OpenAPIDocument+JSON.swift")
            return [
                .buildCommand(
                    displayName: "Generating tally-gateway's OpenAPI document from Protocol/schemas and examples",
                    executable: generator,
                    arguments: ["openapi", schemas.path, examples.path, version.path, statuses.path, document.path],
                    inputFiles: files + Self.files(under: examples, endingIn: ".json") + [version, statuses],
                    outputFiles: [document])
            ]
        }
        let wireTypes = work.appending(path: "WireTypes.swift")
        let methodTable = work.appending(path: "MethodTable.swift")
        return [
            .buildCommand(
                displayName: "Generating TallyProtocol's wire types and method table from Protocol/schemas",
                executable: generator, arguments: ["protocol", schemas.path, wireTypes.path, methodTable.path],
                inputFiles: files, outputFiles: [wireTypes, methodTable])
        ]
    }

    /// The files below `folder` whose names end in `suffix`, sorted.
    static func files(under folder: URL, endingIn suffix: String) -> [URL] {
        FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { $0.lastPathComponent.hasSuffix(suffix) }
            .sorted { $0.path < $1.path } ?? []
    }
}
