import ArgumentParser
import Foundation

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
