import Foundation
import TallyCommandLine
import Testing

/// The settings tables of docs/operating.md are the programs' declared settings (``SettingCatalog``), word for word:
/// a setting added, renamed or given another default in code cannot leave the operators' documentation behind.
@Suite struct SettingsDocumentationTests {
    static let operating = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "docs/operating.md")

    @Test(arguments: [BrokerSettings.catalog, WorkerSettings.catalog, ConnectionSettings.catalog])
    func theDocumentedTableIsTheDeclaredSettings(catalog: SettingCatalog) throws {
        let operating = try String(contentsOf: Self.operating, encoding: .utf8)
        #expect(
            operating.contains(catalog.markdownTable + "\n"),
            "docs/operating.md must hold \(catalog.program)'s table exactly as declared:\n\(catalog.markdownTable)")
    }

    static let gateway = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "docs/gateway.md")

    /// tally-gateway's table is in its own document, with the rest of what its operators need.
    @Test func theGatewaysDocumentedTableIsItsDeclaredSettings() throws {
        let gateway = try String(contentsOf: Self.gateway, encoding: .utf8)
        #expect(
            gateway.contains(GatewaySettings.catalog.markdownTable + "\n"),
            "docs/gateway.md must hold tally-gateway's table exactly as declared:\n\(GatewaySettings.catalog.markdownTable)"
        )
    }

    @Test(arguments: [
        BrokerSettings.catalog, WorkerSettings.catalog, ConnectionSettings.catalog, GatewaySettings.catalog,
    ])
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
