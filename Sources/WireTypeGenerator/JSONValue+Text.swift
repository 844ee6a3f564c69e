import TallyJSONCoding

extension JSONValue {
    /// The value as compact JSON text (RFC 8259): members in their order, strings with `"`, `\` and control
    /// characters escaped and everything else as UTF-8, whole numbers without a fraction. For documents the
    /// generator writes from the schemas and examples it read (the OpenAPI document), so that what they hold is
    /// what those files say, value for value.
    var jsonText: String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value): text += Self.number(value)
        case .string(let value): Self.string(value, to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        case .object(let object):
            text += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { text += "," }
                Self.string(member.key, to: &text)
                text += ":"
                member.value.write(to: &text)
            }
            text += "}"
        }
    }

    /// `8000`, not `8000.0`: a whole number within a double's exact integers is written as one, anything else in
    /// Swift's shortest form that reads back to the same double.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }

    static func string(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

/// Builds JSON values in the generator's code without a literal syntax of their own.
enum JSON {
    /// An object of the members whose value is not `nil`, in order.
    static func object(_ members: [(String, JSONValue?)]) -> JSONValue {
        .object(JSONObject(members: members.compactMap { key, value in value.map { (key, $0) } }))
    }

    static func text(_ value: String) -> JSONValue { .string(value) }

    static func texts(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
}
