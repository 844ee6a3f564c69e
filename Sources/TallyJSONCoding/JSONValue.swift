/// A JSON document as plain values, for code that walks a document it has no type for (a schema file, a protocol
/// example). Each object keeps its members in the order the text writes them when `TallyJSONDecoder` decodes it
/// (its keyed containers list keys in document order); two objects are equal when they have the same members,
/// whatever their order, as JSON reads them.
@usableFromInline package enum JSONValue: Decodable, Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    @usableFromInline package init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: JSONCodingKey.self) {
            self = .object(
                JSONObject(
                    members: try object.allKeys.map { ($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
            )
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// The member `key` of an object; `nil` for a missing member or a value that is not an object.
    @usableFromInline package subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    @usableFromInline package var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    @usableFromInline package var elements: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    @usableFromInline package var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[\(values.map(\.description).joined(separator: ","))]"
        case .object(let object): "{\(object.members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ","))}"
        }
    }
}

/// A JSON object's members in document order.
@usableFromInline package struct JSONObject: Sendable, Equatable {
    @usableFromInline package var members: [(key: String, value: JSONValue)]

    @usableFromInline package init(members: [(key: String, value: JSONValue)]) {
        self.members = members
    }

    /// The value of member `key` (the first, should a document name it twice).
    @usableFromInline package subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    @usableFromInline package var keys: [String] { members.map(\.key) }

    /// The same members with the same values, in any order.
    @usableFromInline package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }
}
