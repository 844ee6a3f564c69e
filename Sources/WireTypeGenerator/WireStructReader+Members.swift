import TallyJSONCoding

/// What a member's schema says of it in Swift beyond its type: its name, its default, how it is written and read.
extension WireStructReader {
    /// The member `key` of an object's `properties`.
    /// - Parameter source: where the object is written, for messages.
    func member(
        _ key: String, _ property: JSONValue, required: Bool, file: String, source: String
    ) throws(GeneratorError) -> WireStruct.Member {
        // Generated code writes and reads member names as they are, between quotes, with no escaping.
        guard Self.isPlainName(key) else {
            throw GeneratorError("\(source)/properties: the member name '\(key)' is not ASCII letters, digits and _")
        }
        let path = "\(source)/properties/\(key)"
        let (type, nullable) = try swiftType(of: property, file: file, at: path)
        var member = WireStruct.Member(
            key: key, name: property["x-swift-name"]?.string ?? Self.swiftName(key), memberType: type,
            isOptional: !required, isNullable: nullable, description: try description(of: property, file: file))
        if !required, let value = property["default"] {
            member.defaultValue = try defaultExpression(value, of: type, swift: property["x-swift-default"], at: path)
        }
        member.omitsWhenEmpty = property["x-swift-omit-empty"] == .bool(true)
        member.isSelective = property["x-swift-selective"] == .bool(true)
        if member.omitsWhenEmpty, member.defaultValue != "[]" {
            throw GeneratorError("\(path): x-swift-omit-empty is for a list that defaults to none (\"default\": [])")
        }
        if member.isSelective {
            guard required, !nullable, case .array = type else {
                throw GeneratorError("\(path): x-swift-selective is for a required list")
            }
        }
        return member
    }

    /// A member's description: its own, else that of the definition whose Swift type it has (`swiftType(of:)`):
    /// the one it names (`"$ref"`), or the one value of a `oneOf` or `anyOf` beside `null`, or of an `allOf` of
    /// one. So a member written as a bare reference (`"is_pro": {"$ref": …}`, a nullable date) is documented as
    /// the definition is.
    private func description(of property: JSONValue, file: String) throws(GeneratorError) -> String? {
        if let own = property["description"]?.string { return own }
        if let reference = property["$ref"]?.string {
            let target = try index.resolve(reference, from: file)
            return try description(of: target.node, file: target.file)
        }
        for keyword in ["oneOf", "anyOf"] {
            let values = property[keyword]?.elements?.filter { $0.typeNames != ["null"] } ?? []
            if values.count == 1 { return try description(of: values[0], file: file) }
        }
        if let parts = property["allOf"]?.elements, parts.count == 1 {
            return try description(of: parts[0], file: file)
        }
        return nil
    }

    /// The Swift spelling of a member's default: `x-swift-default` when given; else a boolean, a number, an empty
    /// list, or the case of a closed set named by its value (`"sunday"` → `.sunday`).
    private func defaultExpression(
        _ value: JSONValue, of type: MemberType, swift: JSONValue?, at path: String
    ) throws(GeneratorError) -> String {
        if let swift {
            guard let text = swift.string else { throw GeneratorError("\(path): x-swift-default is Swift text") }
            return text
        }
        switch (value, type) {
        case (.bool(let flag), .scalar("Bool")): return "\(flag)"
        case (.number(let number), .scalar("Int")) where number == number.rounded(): return "\(Int(number))"
        case (.number(let number), .scalar("Double")): return "\(number)"
        case (.array(let elements), .array) where elements.isEmpty: return "[]"
        case (.string(let name), .closedSet): return "." + Self.swiftName(name)
        default:
            throw GeneratorError("\(path): no Swift spelling of the default \(value); give x-swift-default")
        }
    }

    /// The members in the order Swift writes them: `"x-swift-write-order"` (every key once) or the schema's.
    func writeOrder(
        of node: JSONValue, _ members: [WireStruct.Member], at source: String
    ) throws(GeneratorError) -> [WireStruct.Member] {
        guard let order = node["x-swift-write-order"] else { return members }
        let keys = order.elements?.compactMap(\.string) ?? []
        guard keys.count == members.count, Set(keys) == Set(members.map(\.key)) else {
            throw GeneratorError(
                "\(source): x-swift-write-order lists every member once: \(members.map(\.key).joined(separator: ", "))"
            )
        }
        return keys.compactMap { key in members.first { $0.key == key } }
    }

    /// Refuses what the fast paths cannot read: a default (the fast paths read every member as the object has it),
    /// a member read its own way without a direct read to go with it, or one that is not the last written.
    func checkFastPath(_ wire: WireStruct) throws(GeneratorError) {
        if wire.fastPath != nil, let defaulted = wire.members.first(where: { $0.defaultValue != nil }) {
            throw GeneratorError("\(wire.source): x-swift-fast-path with a default (\(defaulted.key)) is not read")
        }
        guard let selective = wire.members.first(where: \.isSelective) else { return }
        guard wire.fastPath == .decode, wire.written.last?.key == selective.key,
            wire.members.filter(\.isSelective).count == 1
        else {
            throw GeneratorError(
                "\(wire.source): x-swift-selective is for one member, written last, of a struct read directly "
                    + "(x-swift-fast-path decode)")
        }
    }
}
