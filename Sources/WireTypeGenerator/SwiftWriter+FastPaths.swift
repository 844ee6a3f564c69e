/// The fast paths a schema asks for with `"x-swift-fast-path"`: straight-line code over the same members as the
/// struct, so that the names, types and order a fast path relies on are the schema's, as the struct's are.
extension SwiftWriter {
    /// Names the decoder's own locals use: a member called so would shadow them.
    static let reservedNames: Set<String> = ["keys", "member", "object"]

    mutating func fastPath(_ wire: WireStruct) throws(GeneratorError) {
        switch wire.fastPath {
        case nil: return
        case .decode:
            try fastDecoder(wire)
            try directDecoder(wire)
        case .encode: try fastEncoder(wire)
        }
    }

    /// `JSONFastDecodable`: each member read by the typed read of its kind; anything unusual is `nil`, and the
    /// synthesized `init(from:)` decodes it (to the same value, or to its usual error).
    private mutating func fastDecoder(_ wire: WireStruct) throws(GeneratorError) {
        line()
        line("extension \(wire.name): JSONFastDecodable {")
        indent += "    "
        line("static let fastKeys = JSONKeySet<CodingKeys>()")
        line()
        documentation(
            "The plain object read without Codable's containers; anything else (a member of another type, escapes "
                + "in a date) is `nil`, and the synthesized `init(from:)` decodes it with its usual errors.")
        // Small elements (a set of an exercise) are inlined into the array loop that reads thousands of them.
        if wire.members.count <= 3 { line("@inline(__always)") }
        line("@usableFromInline package init?(fastFrom object: borrowing JSONObjectReader) {")
        indent += "    "
        line("let keys = Self.fastKeys")
        var reads: [String] = []
        for member in wire.members {
            guard !Self.reservedNames.contains(member.name) else {
                throw GeneratorError("\(wire.source): a member named \(member.name) has no fast path")
            }
            let mayBeNil = member.isOptional || member.isNullable
            line(mayBeNil ? "var \(member.name): \(member.type)? = .some(nil)" : "var \(member.name): \(member.type)?")
            reads.append("case .\(member.name): \(member.name) = \(try Self.read(member, in: wire))")
        }
        line("for member in object.members {")
        indent += "    "
        line("switch member.key(in: keys) {")
        for read in reads { line(read) }
        line("case nil: continue")
        line("}")
        indent.removeLast(4)
        line("}")
        let names = wire.members.map(\.name)
        guardRead(names)
        wrapped(open: "self.init(", items: names.map { "\($0): \($0)" }, close: ")", separator: ",")
        indent.removeLast(4)
        line("}")
        indent.removeLast(4)
        line("}")
    }

    /// The typed read of `member`'s value: `nil` when it is not plainly of its type.
    private static func read(_ member: WireStruct.Member, in wire: WireStruct) throws(GeneratorError) -> String {
        let mayBeNil = member.isOptional || member.isNullable
        switch (member.memberType, mayBeNil) {
        case (.scalar("Int"), false): return "member.int"
        case (.scalar("Int"), true): return "member.optionalInt"
        case (.scalar("Double"), false): return "member.double"
        case (.scalar("Double"), true): return "member.optionalDouble"
        case (.scalar("String"), false): return "member.string"
        case (.scalar("String"), true): return "member.optionalString"
        case (.text(let type), false): return "member.utf8 { try? \(type)(utf8: $0) }"
        case (.closedSet(let type), false): return "member.utf8(\(type).init(utf8Symbol:))"
        case (.wireStruct(let type), true): return "member.optionalObject(of: \(type).self)"
        case (.array(.wireStruct(let type), false), false): return "member.array(of: \(type).self)"
        case (.array(.scalar("String"), false), false): return "member.strings"
        default:
            throw GeneratorError("\(wire.source): no fast read for \(member.key) (\(member.type))")
        }
    }

    /// `JSONFastEncodable`: the members in the order written (`written`), as `encode(to:)` writes them: a nil member
    /// as null (`JSONObjectWriter.null` leaves it out for an encoder that does not write nils), or left out when
    /// the struct leaves nil members out (`JSONOmittingNilMembers`). Members of kinds without a write of their own
    /// (a map of other kinds, a hand-written type, nested lists) go through their `Encodable` conformance.
    private mutating func fastEncoder(_ wire: WireStruct) throws(GeneratorError) {
        line()
        line("extension \(wire.name): JSONFastEncodable {")
        indent += "    "
        line("/// The members written straight to the output, in order.")
        line("@usableFromInline package func writeMembers(to object: inout JSONObjectWriter) throws {")
        indent += "    "
        for member in wire.written {
            let write = Self.write(member, value: member.name, fastEncodable: fastEncodable)
            guard member.isOptional || member.isNullable else {
                line(write)
                continue
            }
            line("if let \(member.name) {")
            line("    \(write)")
            if member.isOptional && wire.omitsNilMembers {
                line("}")
            } else {
                line("} else {")
                line("    object.null(\"\(member.key)\")")
                line("}")
            }
        }
        indent.removeLast(4)
        line("}")
        indent.removeLast(4)
        line("}")
    }

    /// The write of a member's present value `value`.
    private static func write(_ member: WireStruct.Member, value: String, fastEncodable: Set<String>) -> String {
        let key = "\"\(member.key)\""
        switch member.memberType {
        case .scalar("Int"): return "object.int(\(key), \(value))"
        case .scalar("Double"): return "try object.double(\(key), \(value))"
        case .scalar("String"): return "object.string(\(key), \(value))"
        case .scalar("Bool"): return "object.bool(\(key), \(value))"
        case .array(.scalar("Int"), false): return "object.ints(\(key), \(value))"
        case .array(.scalar("Double"), false): return "try object.doubles(\(key), \(value))"
        case .text: return "object.text(\(key), \(value))"
        case .array(.text, false): return "object.texts(\(key), \(value))"
        case .array(.array(.text, true), false): return "object.textRows(\(key), \(value))"
        case .closedSet: return "object.string(\(key), \(value).rawValue)"
        case .array(.closedSet, false): return "object.names(\(key), \(value))"
        case .wireStruct(let type) where fastEncodable.contains(type): return "try object.object(\(key), \(value))"
        // A hand-written type that is itself a wire struct of another schema (`"x-swift-type"` naming it), or that
        // writes itself.
        case .named(let type) where fastEncodable.contains(type): return "try object.object(\(key), \(value))"
        case .selfWriting: return "try object.object(\(key), \(value))"
        case .array(.wireStruct(let type), false) where fastEncodable.contains(type):
            return "try object.objects(\(key), \(value))"
        case .array(.scalar("String"), false): return "object.strings(\(key), \(value))"
        case .dictionary(.wireStruct(let type), false) where fastEncodable.contains(type):
            return "try object.objectMap(\(key), \(value))"
        default: return "try object.encodable(\(key), \(value))"
        }
    }
}
