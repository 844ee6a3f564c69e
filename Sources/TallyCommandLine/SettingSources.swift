import ArgumentParser
import Foundation

/// Resolves settings from their sources in Tally's one documented precedence order:
/// **command-line flag, then environment variable, then configuration file, then built-in default.**
///
/// A setting is named by its long flag (`heartbeat-interval`); its environment variable is that name in capitals
/// with `TALLY_` in front (`TALLY_HEARTBEAT_INTERVAL`) and its configuration-file key is the name itself. A value
/// that does not parse, or a file key that is not a setting of this program, stops the process at start with a
/// message naming where the value came from: a typo in a deployment must not run with a default.
public struct SettingSources {
    let environment: [String: String]
    let file: ConfigurationFile?

    /// - Parameters:
    ///   - configPath: `--config`, else `TALLY_CONFIG`, else no file.
    ///   - knownKeys: the settings this program has (file keys outside it are refused).
    public init(
        configPath: String?, knownKeys: Set<String>, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        self.environment = environment
        let path = configPath ?? environment["TALLY_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        self.file = try path.map { try ConfigurationFile(path: $0, knownKeys: knownKeys) }
    }

    /// The environment variable of a setting.
    public static func environmentVariable(_ key: String) -> String {
        "TALLY_" + key.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// One value.
    public func resolve<Value: ExpressibleByArgument>(
        _ flag: Value?, _ key: String, default defaultValue: Value
    ) throws -> Value {
        if let flag { return flag }
        let variable = Self.environmentVariable(key)
        if let text = environment[variable], !text.isEmpty {
            guard let value = Value(argument: text) else {
                throw ValidationError("environment variable \(variable)='\(text)' is not a valid value for --\(key)")
            }
            return value
        }
        if let text = try file?.scalar(key) {
            guard let value = Value(argument: text) else {
                throw ValidationError("\(file!.path): \"\(key)\": '\(text)' is not a valid value")
            }
            return value
        }
        return defaultValue
    }

    /// A list (repeatable flag; comma-separated in the environment; an array or a string in the file).
    /// - Parameter variable: the environment variable when it is not derived from `key` (plural names for lists,
    ///   `TALLY_BROKERS` for `--broker`).
    public func resolve(
        _ flags: [String], _ key: String, environmentVariable variable: String? = nil, default defaultValue: [String]
    ) throws -> [String] {
        if !flags.isEmpty { return flags }
        if let text = environment[variable ?? Self.environmentVariable(key)], !text.isEmpty {
            return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let list = try file?.list(key) { return list }
        return defaultValue
    }
}

/// A JSON configuration file: an object whose keys are setting names (long flags without the dashes).
///
/// ```json
/// { "bind": ["tcp://*:5555"], "heartbeat-interval": "2500ms", "max-queue": 10000 }
/// ```
struct ConfigurationFile {
    /// A value in the file, as JSON gives it.
    enum Value: Decodable {
        case text(String)
        case list([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .text(flag ? "true" : "false")
            } else if let integer = try? container.decode(Int.self) {
                self = .text(String(integer))
            } else if let number = try? container.decode(Double.self) {
                self = .text(String(number))
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .list(try container.decode([String].self))
            }
        }
    }

    let path: String
    let values: [String: Value]

    init(path: String, knownKeys: Set<String>) throws {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read configuration file \(path)")
        }
        do {
            values = try JSONDecoder().decode([String: Value].self, from: data)
        } catch {
            throw ValidationError(
                "\(path) must hold a JSON object whose values are strings, numbers, booleans or lists of strings")
        }
        let unknown = Set(values.keys).subtracting(knownKeys)
        guard unknown.isEmpty else {
            throw ValidationError(
                "\(path): unknown setting(s) \(unknown.sorted().joined(separator: ", ")); known: \(knownKeys.sorted().joined(separator: ", "))"
            )
        }
    }

    func scalar(_ key: String) throws -> String? {
        switch values[key] {
        case nil: return nil
        case .text(let text): return text
        case .list: throw ValidationError("\(path): \"\(key)\" must be a single value, not a list")
        }
    }

    func list(_ key: String) throws -> [String]? {
        switch values[key] {
        case nil: return nil
        case .text(let text): return [text]
        case .list(let items): return items
        }
    }
}
