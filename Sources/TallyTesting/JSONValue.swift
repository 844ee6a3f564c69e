/// A parsed JSON document, for comparing responses with the Protocol/ examples.
public enum JSONValue: Decodable, Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[\(values.map(\.description).joined(separator: ","))]"
        case .object(let members):
            "{\(members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ","))}"
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// Differences between `self` (actual) and `expected`, where the string "$any" in `expected` matches any
    /// value and numbers match within a relative 1e-9.
    public func differences(from expected: JSONValue, at path: String = "$") -> [String] {
        switch (self, expected) {
        case (_, .string("$any")):
            return []
        case (.number(let actual), .number(let wanted)):
            return abs(actual - wanted) <= 1e-9 * max(1, abs(wanted)) ? [] : ["\(path): \(actual) != \(wanted)"]
        case (.array(let actual), .array(let wanted)):
            guard actual.count == wanted.count else {
                return ["\(path): \(actual.count) elements, expected \(wanted.count)"]
            }
            return zip(actual, wanted).enumerated().flatMap { $1.0.differences(from: $1.1, at: "\(path)[\($0)]") }
        case (.object(let actual), .object(let wanted)):
            let keys = Set(actual.keys).union(wanted.keys).sorted()
            return keys.flatMap { key -> [String] in
                switch (actual[key], wanted[key]) {
                case (let a?, let w?): a.differences(from: w, at: "\(path).\(key)")
                case (nil, _?): ["\(path).\(key): missing"]
                case (_?, nil): ["\(path).\(key): unexpected"]
                case (nil, nil): []
                }
            }
        default:
            return self == expected ? [] : ["\(path): \(self) != \(expected)"]
        }
    }
}
