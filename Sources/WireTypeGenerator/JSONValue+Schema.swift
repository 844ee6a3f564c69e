import TallyJSONCoding

extension JSONValue {
    var members: [(key: String, value: JSONValue)]? {
        if case .object(let object) = self { object.members } else { nil }
    }

    /// The `type` keyword's names (`"integer"` or `["integer", "null"]`).
    var typeNames: [String] {
        switch self["type"] {
        case .string(let name)?: [name]
        case .array(let names)?: names.compactMap(\.string)
        default: []
        }
    }
}
