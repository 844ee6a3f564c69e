import ArgumentParser
import Foundation

/// Resolves settings from their sources in Tally's one documented precedence order:
/// **command-line flag, then environment variable, then configuration file, then built-in default.**
///
/// A setting (``Setting``) is named by its long flag (`heartbeat-interval`); its environment variable is that name
/// in capitals with `TALLY_` in front (`TALLY_HEARTBEAT_INTERVAL`) and its configuration-file key is the name
/// itself. A value that does not parse or that the setting refuses, or a file key that is not a setting of this
/// program, stops the process at start with a message naming the option and where the value came from: a typo in
/// a deployment must not run with a default.
///
/// apple/swift-configuration was weighed for this and not taken: its readers resolve keys through providers, but a
/// key there is not a declaration (no help, no check, nothing to generate a flag or a documented row from), its file
/// providers do not refuse unknown keys, and its command-line provider would parse arguments a second time beside
/// ArgumentParser, which `--help`, `--version` and exit status 64 come from. What Tally needs of it is the fixed
/// precedence below, a few dozen lines.
package struct SettingSources {
    let environment: [String: String]
    let file: ConfigurationFile?

    /// - Parameters:
    ///   - configPath: `--config`, else `TALLY_CONFIG`, else no file.
    ///   - catalog: the settings this program has (file keys outside it are refused).
    package init(
        configPath: String?, catalog: SettingCatalog,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        self.environment = environment
        let path = configPath ?? environment["TALLY_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        self.file = try path.map { try ConfigurationFile(path: $0, knownKeys: catalog.names) }
    }

    /// The environment variable of a setting named `key`.
    package static func environmentVariable(_ key: String) -> String {
        "TALLY_" + key.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// Where a value came from, for messages.
    enum Source {
        case flag, environment(String), file(String), defaultValue

        func describe(_ name: String, _ text: String) -> String {
            switch self {
            case .flag: "--\(name) '\(text)'"
            case .environment(let variable): "environment variable \(variable)='\(text)'"
            case .file(let path): "\(path): \"\(name)\": '\(text)'"
            case .defaultValue: "the default '\(text)'"
            }
        }
    }

    /// One value: the flag's, else the environment's, else the file's, else the default; checked.
    package func resolve<Value: ExpressibleByArgument>(_ flag: Value?, _ setting: Setting<Value>) throws -> Value {
        let (value, source): (Value, Source)
        if let flag {
            (value, source) = (flag, .flag)
        } else if let text = environment[setting.environmentVariable], !text.isEmpty {
            value = try Self.parse(text, setting, from: .environment(setting.environmentVariable))
            source = .environment(setting.environmentVariable)
        } else if let file, let text = try file.scalar(setting.name) {
            value = try Self.parse(text, setting, from: .file(file.path))
            source = .file(file.path)
        } else {
            (value, source) = (setting.defaultValue, .defaultValue)
        }
        try Self.check(value, setting, text: "\(value)", from: source)
        return value
    }

    /// A list (repeatable flag; comma-separated in the environment; an array or a string in the file); checked.
    package func resolve(_ flags: [String], _ setting: Setting<[String]>) throws -> [String] {
        let (values, source): ([String], Source)
        if !flags.isEmpty {
            (values, source) = (flags, .flag)
        } else if let text = environment[setting.environmentVariable], !text.isEmpty {
            values = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            source = .environment(setting.environmentVariable)
        } else if let file, let list = try file.list(setting.name) {
            (values, source) = (list, .file(file.path))
        } else {
            (values, source) = (setting.defaultValue, .defaultValue)
        }
        try Self.check(values, setting, text: values.joined(separator: ","), from: source)
        return values
    }

    private static func parse<Value: ExpressibleByArgument>(
        _ text: String, _ setting: Setting<Value>, from source: Source
    ) throws -> Value {
        guard let value = Value(argument: text) else {
            throw ValidationError("\(source.describe(setting.name, text)) is not a valid value for --\(setting.name)")
        }
        return value
    }

    private static func check<Value>(_ value: Value, _ setting: Setting<Value>, text: String, from source: Source) throws {
        guard let problem = setting.check.problem(value) else { return }
        switch source {
        case .flag, .defaultValue: throw ValidationError("--\(setting.name) \(problem)")
        default: throw ValidationError("--\(setting.name) \(problem) (from \(source.describe(setting.name, text)))")
        }
    }
}
