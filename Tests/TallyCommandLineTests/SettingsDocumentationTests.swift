import Foundation
import TallyCommandLine
import Testing

/// The README's settings tables are the programs' declared settings (``SettingCatalog``), word for word: a setting
/// added, renamed or given another default in code cannot leave the README behind.
@Suite struct SettingsDocumentationTests {
    static let readme = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "README.md")

    @Test(arguments: [BrokerSettings.catalog, WorkerSettings.catalog, ConnectionSettings.catalog])
    func theReadmeTableIsTheDeclaredSettings(catalog: SettingCatalog) throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        #expect(
            readme.contains(catalog.markdownTable + "\n"),
            "README.md must hold \(catalog.program)'s table exactly as declared:\n\(catalog.markdownTable)")
    }

    @Test(arguments: [BrokerSettings.catalog, WorkerSettings.catalog, ConnectionSettings.catalog])
    func everySettingHasOneNameAndOneVariable(catalog: SettingCatalog) {
        let names = catalog.settings.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        let variables = catalog.settings.map(\.environmentVariable)
        #expect(Set(variables).count == variables.count, "\(variables)")
        #expect(variables.allSatisfy { $0.hasPrefix("TALLY_") })
    }
}

extension SettingCatalog: CustomTestStringConvertible {
    public var testDescription: String { program }
}
