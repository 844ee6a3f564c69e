import ArgumentParser
import Foundation

/// Resolves one setting from its sources in Tally's documented precedence:
/// command-line flag, then environment variable, then the built-in default.
///
/// A value from the environment that does not parse is refused with a message naming the variable, so that a
/// typo in a deployment manifest stops the process at start rather than running with a default.
public struct Setting<Value: ExpressibleByArgument> {
    public let environmentVariable: String
    public let defaultValue: Value

    public init(_ environmentVariable: String, default defaultValue: Value) {
        self.environmentVariable = environmentVariable
        self.defaultValue = defaultValue
    }

    /// The flag's value if given, else the environment's, else the default.
    public func resolve(_ flag: Value?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Value {
        if let flag { return flag }
        guard let text = environment[environmentVariable], !text.isEmpty else { return defaultValue }
        guard let value = Value(argument: text) else {
            throw ValidationError("environment variable \(environmentVariable)='\(text)' is not a valid value")
        }
        return value
    }
}

/// A list setting (repeatable flag; comma-separated in the environment).
public struct ListSetting {
    public let environmentVariable: String
    public let defaultValue: [String]

    public init(_ environmentVariable: String, default defaultValue: [String]) {
        self.environmentVariable = environmentVariable
        self.defaultValue = defaultValue
    }

    public func resolve(_ flags: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if !flags.isEmpty { return flags }
        if let text = environment[environmentVariable], !text.isEmpty {
            return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return defaultValue
    }
}
