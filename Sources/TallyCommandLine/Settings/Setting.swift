import ArgumentParser

/// One setting of a Tally program, declared once: its name (the long flag and the configuration-file key), its
/// environment variable, what it means, its default and what values it accepts. The flag's help, the value's
/// resolution (``SettingSources``), the error for a bad value and the settings tables of docs/operating.md all come
/// from here, so that they cannot disagree.
///
/// Defaults come from the library's own configuration types (`BrokerConfiguration()`, `WorkerConfiguration`…)
/// where those have one: a program run without flags behaves as the library does.
package struct Setting<Value: Sendable>: Sendable {
    package let documentation: SettingDocumentation
    package let defaultValue: Value
    let check: SettingCheck<Value>

    package var name: String { documentation.name }
    package var environmentVariable: String { documentation.environmentVariable }

    /// - Parameters:
    ///   - name: the long flag without dashes, also the configuration-file key.
    ///   - summary: what the setting means, as a sentence for `--help`.
    ///   - defaultValue: the value when no source gives one.
    ///   - shownDefault: how the default reads in `--help` and docs/operating.md (`off`, `one per core`); the value's
    ///     own text when `nil`.
    ///   - environmentVariable: when it is not the name in capitals after `TALLY_` (`TALLY_BROKERS` for `broker`).
    ///   - check: what a value must satisfy, whatever its source.
    init(
        _ name: String, _ summary: String, default defaultValue: Value, shownDefault: String? = nil,
        environmentVariable: String? = nil, isList: Bool, check: SettingCheck<Value>
    ) {
        self.documentation = SettingDocumentation(
            name: name, summary: summary,
            environmentVariable: environmentVariable ?? SettingSources.environmentVariable(name),
            shownDefault: shownDefault ?? Self.text(of: defaultValue), defaultIsValue: shownDefault == nil,
            isList: isList)
        self.defaultValue = defaultValue
        self.check = check
    }

    /// The option's name for ArgumentParser: `@Option(name: setting.flag, help: setting.help)`.
    package var flag: NameSpecification { .customLong(name) }

    /// The option's help: the summary, its environment variable and its default.
    package var help: ArgumentHelp { ArgumentHelp(documentation.helpText) }

    private static func text(of value: Value) -> String {
        switch value {
        case let list as [String]: list.joined(separator: ", ")
        default: "\(value)"
        }
    }
}

extension Setting where Value: ExpressibleByArgument {
    /// A single value.
    package init(
        _ name: String, _ summary: String, default defaultValue: Value, shownDefault: String? = nil,
        environmentVariable: String? = nil, check: SettingCheck<Value> = .any
    ) {
        self.init(
            name, summary, default: defaultValue, shownDefault: shownDefault,
            environmentVariable: environmentVariable, isList: false, check: check)
    }
}

extension Setting where Value == [String] {
    /// A list: a repeatable flag, comma-separated in the environment, an array (or one string) in the file.
    package init(
        list name: String, _ summary: String, default defaultValue: [String], shownDefault: String? = nil,
        environmentVariable: String? = nil, check: SettingCheck<[String]> = .any
    ) {
        self.init(
            name, summary, default: defaultValue, shownDefault: shownDefault,
            environmentVariable: environmentVariable, isList: true, check: check)
    }
}

/// What is said about a setting, whatever its value type: for `--help`, for messages and for docs/operating.md.
package struct SettingDocumentation: Sendable, Hashable {
    package let name: String
    package let summary: String
    package let environmentVariable: String
    /// The default as people read it (`2500ms`, `off`).
    package let shownDefault: String
    /// Whether `shownDefault` is a value one could write (`2500ms`) rather than words (`off`).
    package let defaultIsValue: Bool
    package let isList: Bool

    var helpText: String {
        let variable = isList ? "\(environmentVariable), comma-separated" : environmentVariable
        return "\(summary) [env: \(variable)] (default: \(shownDefault))"
    }
}
