import Foundation

/// The settings one program has, in the order its `--help` and docs/operating.md list them: what its configuration
/// file may hold, and the source of the settings table docs/operating.md shows for it.
package struct SettingCatalog: Sendable {
    package let program: String
    package let settings: [SettingDocumentation]

    package init(program: String, settings: [SettingDocumentation]) {
        self.program = program
        self.settings = settings
    }

    /// The names a configuration file may use.
    package var names: Set<String> { Set(settings.map(\.name)) }

    /// The table of this program's settings in docs/operating.md: one row per setting with its flag, environment
    /// variable, default and meaning. `SettingsDocumentationTests` checks that docs/operating.md holds exactly this.
    package var markdownTable: String {
        var lines = ["| `\(program)` | env | default | meaning |", "|---|---|---|---|"]
        for setting in settings {
            let flag = setting.isList ? "`--\(setting.name)` (repeat)" : "`--\(setting.name)`"
            let variable = setting.isList ? "`\(setting.environmentVariable)` (comma-separated)" : "`\(setting.environmentVariable)`"
            let shown = setting.defaultIsValue ? "`\(setting.shownDefault)`" : setting.shownDefault
            let summary = setting.summary.replacingOccurrences(of: "|", with: "\\|")
            lines.append("| \(flag) | \(variable) | \(shown) | \(summary) |")
        }
        return lines.joined(separator: "\n")
    }
}
