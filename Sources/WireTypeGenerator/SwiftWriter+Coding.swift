/// `init(from:)` and `encode(to:)` of the structs Codable's synthesized coding does not fit (params with their
/// embedded groups and defaults): the groups first, each from the same object by its own keys, then the struct's
/// own members in the order written. That order decides which of two wrong members a request's error names, and
/// the bytes Swift clients send, so it is the one they have always had (`"x-swift-write-order"`).
extension SwiftWriter {
    mutating func coding(_ wire: WireStruct) {
        line()
        guard !(wire.parts.isEmpty && wire.written.isEmpty) else {
            // Nothing to read: whatever is sent (left out, null, an object) is none.
            line("public init(from decoder: any Decoder) throws {}")
            line()
            line("public func encode(to encoder: any Encoder) throws {")
            line("    _ = encoder.container(keyedBy: CodingKeys.self)")
            line("}")
            return
        }
        line("public init(from decoder: any Decoder) throws {")
        indent += "    "
        for part in wire.parts { line("\(part.name) = try \(part.type)(from: decoder)") }
        if !wire.written.isEmpty { line("let container = try decoder.container(keyedBy: CodingKeys.self)") }
        for member in wire.written {
            let type = member.memberType.swift
            let value =
                if let initial = member.defaultValue {
                    "try container.decodeIfPresent(\(type).self, forKey: .\(member.name)) ?? \(initial)"
                } else if member.isOptional {
                    "try container.decodeIfPresent(\(type).self, forKey: .\(member.name))"
                } else if member.isNullable {
                    "try container.decode(\(type)?.self, forKey: .\(member.name))"
                } else {
                    "try container.decode(\(type).self, forKey: .\(member.name))"
                }
            assignment(member.name, value)
        }
        indent.removeLast(4)
        line("}")
        line()
        line("public func encode(to encoder: any Encoder) throws {")
        indent += "    "
        for part in wire.parts { line("try \(part.name).encode(to: encoder)") }
        if !wire.written.isEmpty { line("var container = encoder.container(keyedBy: CodingKeys.self)") }
        for member in wire.written {
            if member.omitsWhenEmpty {
                line("if !\(member.name).isEmpty { try container.encode(\(member.name), forKey: .\(member.name)) }")
            } else if member.isOptional && member.mayBeNil {
                line("try container.encodeIfPresent(\(member.name), forKey: .\(member.name))")
            } else {
                line("try container.encode(\(member.name), forKey: .\(member.name))")
            }
        }
        indent.removeLast(4)
        line("}")
    }

    /// `name = value` on one line when it fits, else the value on an indented line of its own.
    private mutating func assignment(_ name: String, _ value: String) {
        guard indent.count + name.count + 3 + value.count > Self.lineLength else { return line("\(name) = \(value)") }
        line("\(name) =")
        line("    \(value)")
    }
}
