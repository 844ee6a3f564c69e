/// The direct reads of flat params (`JSONDirectDecodable`): a `DirectMembers` per params type and per group the params
/// embed, which reads the members a key names as the object's members come, in any order, each once, and then makes
/// the value `init(from:)` would, or `nil` for anything `init(from:)` might refuse. Params are read once per
/// request, so a member is found by comparing its key with each name in turn; what arrives by the thousand (their
/// records, samples, workouts) is read by its elements' own direct decoders.
///
/// A worker that reads a member its own way (a workout method's `workouts`) reads the others through
/// `DirectMembers` as the generated read does. They are `package`: a client links `init?(direct:)`, not the reads
/// it is made of.
extension SwiftWriter {
    /// Names the members' reader uses: a member called so would shadow them.
    static let membersReservedNames: Set<String> = ["key", "cursor", "value", "read"]

    mutating func directMembers(_ wire: WireStruct) throws(GeneratorError) {
        var reads: [String] = []
        for member in wire.written {
            guard !Self.membersReservedNames.contains(member.name), let read = Self.valueRead(member.memberType)
            else {
                throw GeneratorError("\(wire.source): no direct read for \(member.key) (\(member.type))")
            }
            reads.append("cursor." + read.dropFirst(3))
        }
        line()
        line("extension \(wire.name) {")
        indent += "    "
        documentation(
            "The members as a direct read of flat params meets them (`JSONCursor`), then what they make"
                + (wire.role == .handWrittenPart ? " (`value`, written beside the type)." : " as `init(from:)` does."))
        line("package struct DirectMembers {")
        indent += "    "
        for part in wire.parts { line("package var \(part.name) = \(part.type).DirectMembers()") }
        for member in wire.written { line("package var \(member.name): \(member.memberType.swift)?") }
        if !(wire.parts.isEmpty && wire.written.isEmpty) { line() }
        line("package init() {}")
        line()
        documentation(
            "Reads the value of `key` when it is one of these members: `true` once read, `false` when it cannot be "
                + "(or was read before), `nil` when the key is not one of them.")
        line("package mutating func read(_ key: JSONKeyBytes, _ cursor: inout JSONCursor) -> Bool? {")
        indent += "    "
        if !wire.parts.isEmpty {
            let parts = wire.parts.map { "\($0.name).read(key, &cursor)" }.joined(separator: " ?? ")
            line("if let read = \(parts) { return read }")
        }
        if wire.written.isEmpty {
            line("return nil")
        } else {
            for (index, member) in wire.written.enumerated() {
                line("\(index == 0 ? "" : "} else ")if key.is(\"\(member.key)\") {")
                indent += "    "
                guardElse(["\(member.name) == nil", "let value = \(reads[index])"], "return false")
                line("\(member.name) = value")
                indent.removeLast(4)
            }
            line("} else {")
            line("    return nil")
            line("}")
            line("return true")
        }
        indent.removeLast(4)
        line("}")
        if wire.role != .handWrittenPart { value(of: wire) }
        indent.removeLast(4)
        line("}")
        indent.removeLast(4)
        line("}")
    }

    /// `DirectMembers.value`: the groups' values and the required members, or `nil`; the others as read, or their
    /// defaults.
    private mutating func value(of wire: WireStruct) {
        line()
        documentation(
            "The value, with `init(from:)`'s defaults; `nil` without " + (wire.parts.isEmpty ? "" : "its groups or ")
                + "a member it requires.")
        line("package var value: \(wire.name)? {")
        indent += "    "
        let required =
            wire.parts.map(\.name) + wire.members.filter { !$0.mayBeNil && $0.defaultValue == nil }.map(\.name)
        if !required.isEmpty {
            let bindings =
                wire.parts.map { "let \($0.name) = \($0.name).value" }
                + wire.members.filter { !$0.mayBeNil && $0.defaultValue == nil }.map { "let \($0.name)" }
            guardElse(bindings, "return nil")
        }
        let arguments =
            wire.parts.map { "\($0.name): \($0.name)" }
            + wire.members.map { member in
                "\(member.name): \(member.name)\(member.defaultValue.map { " ?? \($0)" } ?? "")"
            }
        wrapped(open: "return \(wire.name)(", items: arguments, close: ")", separator: ",")
        indent.removeLast(4)
        line("}")
    }

    /// `init?(direct:)` of params: every member through `DirectMembers`; `null` too, for params that may be null.
    mutating func directParams(_ wire: WireStruct) {
        line()
        line("extension \(wire.name): JSONDirectDecodable {")
        indent += "    "
        documentation(
            "The params read straight off the bytes, members in any order, each once (`DirectMembers`); anything "
                + "else is `nil`, and the standard decoder reads the document with its usual errors.")
        line("@usableFromInline package init?(direct cursor: inout JSONCursor) {")
        indent += "    "
        line("var members = DirectMembers()")
        let object = "guard cursor.object({ key, cursor in members.read(key, &cursor) ?? false }) else { return nil }"
        if wire.acceptsNull {
            line("if !cursor.null() {")
            line("    " + object)
            line("}")
        } else {
            line(object)
        }
        line("guard let value = members.value else { return nil }")
        line("self = value")
        indent.removeLast(4)
        line("}")
        indent.removeLast(4)
        line("}")
    }
}
