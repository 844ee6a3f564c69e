import Foundation
import PackagePlugin

/// Generates TallyProtocol's wire structs from Protocol/schemas (`WireTypeGenerator`) on every build in which a
/// schema changed: the schemas are the contract, and the Swift types are their twin rather than a second copy of
/// each member's name, type and wire name.
@main
struct WireTypes: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let schemas = context.package.directoryURL.appending(path: "Protocol/schemas")
        let files =
            FileManager.default.enumerator(at: schemas, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { $0.lastPathComponent.hasSuffix(".schema.json") }
            .sorted { $0.path < $1.path } ?? []
        let output = context.pluginWorkDirectoryURL.appending(path: "WireTypes.swift")
        return [
            .buildCommand(
                displayName: "Generating TallyProtocol's wire types from Protocol/schemas",
                executable: try context.tool(named: "WireTypeGenerator").url,
                arguments: [schemas.path, output.path],
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
