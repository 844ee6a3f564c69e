/// The direct decoders (`JSONDirectDecodable`) of the structs whose schema asks for a decoding fast path: one pass
/// over the bytes, members matched in place and in any order, each at most once; the member written next is tried
/// first, with no scan for the key's end, since that is where Tally's clients write it.
extension SwiftWriter {
    /// Names the direct decoder's own locals use: a member called so would shadow them.
    static let directReservedNames: Set<String> = [
        "cursor", "first", "expected", "member", "more", "key", "value", "straight", "written", "read",
    ]

    /// Each member's direct read, by its position in `wire.written`.
    static func directReads(_ wire: WireStruct) throws(GeneratorError) -> [String] {
        var reads: [String] = []
        for member in wire.written {
            guard !Self.directReservedNames.contains(member.name) else {
                throw GeneratorError("\(wire.source): a member named \(member.name) has no direct decoder")
            }
            reads.append(try Self.directRead(member, in: wire))
        }
        return reads
    }

    mutating func directDecoder(_ wire: WireStruct) throws(GeneratorError) {
        let reads = try Self.directReads(wire)
        line()
        line("extension \(wire.name): JSONDirectDecodable {")
        indent += "    "
        documentation(
            "The object read straight off the bytes (`JSONCursor`), members in any order; anything unusual (a member "
                + "of another kind, one it does not know or meets twice, escapes in a key or a date) is `nil`, and the "
                + "standard decoder reads the document with its usual errors.")
        // Inlined into the loop that reads thousands of elements: what is left here is the straight pass and a call.
        line("@inline(__always)")
        line("@usableFromInline package init?(direct cursor: inout JSONCursor) {")
        indent += "    "
        line("var straight = cursor")
        line("if let value = Self.straight(&straight) {")
        line("    cursor = straight")
        line("    self = consume value")
        line("    return")
        line("}")
        line("guard let value = Self.anyOrder(&cursor) else { return nil }")
        line("self = consume value")
        indent.removeLast(4)
        line("}")
        line()
        documentation(
            "The object read member by member, in any order: what `init?(direct:)` falls back to when the straight "
                + "pass stops. Never inlined: its locals (a value per member, the loop's state) made every element's "
                + "read set up a frame for them, ~80 instructions a daily record before its first byte was read.")
        line("@inline(never)")
        line("static func anyOrder(_ cursor: inout JSONCursor) -> Self? {")
        anyOrderBody(wire, reads: reads)
        line("}")
        line()
        documentation(
            "The object written compactly with its members in the schema's order, read in one straight pass; `nil` "
                + "(the cursor left anywhere) for anything else.")
        line("@inline(__always)")
        line("static func straight(_ cursor: inout JSONCursor) -> Self? {")
        straightBody(wire, reads: reads, selective: nil)
        line("}")
        indent.removeLast(4)
        line("}")
    }

    /// The body of a member-by-member read: a value per member, then a loop over the object's members that tries
    /// the key written next in place before looking the key up, reading each member at most once.
    /// - Parameter reads: each member's read, by its position in `wire.written`.
    mutating func anyOrderBody(_ wire: WireStruct, reads: [String]) {
        indent += "    "
        for member in wire.written {
            let mayBeNil = member.isOptional || member.isNullable
            line("var \(member.name): \(member.memberType.swift)?\(mayBeNil ? "?" : "")")
        }
        line("guard cursor.beginObject() else { return nil }")
        line("var first = true")
        line("var expected = 0")
        line("while true {")
        indent += "    "
        line("guard let more = cursor.nextMember(first: first) else { return nil }")
        line("guard more else { break }")
        line("first = false")
        line("var member = -1")
        line("switch expected {")
        for (index, member) in wire.written.enumerated() {
            line("case \(index): if cursor.skipKey(\"\(member.key)\") { member = \(index) }")
        }
        line("default: break")
        line("}")
        line("if member < 0 {")
        indent += "    "
        line("guard let key = cursor.key() else { return nil }")
        for (index, member) in wire.written.enumerated() {
            line("\(index == 0 ? "" : "} else ")if key.is(\"\(member.key)\") {")
            line("    member = \(index)")
        }
        line("} else {")
        line("    return nil")
        line("}")
        indent.removeLast(4)
        line("}")
        line("expected = member + 1")
        line("switch member {")
        for (index, member) in wire.written.enumerated() {
            line(index == wire.written.count - 1 ? "default:" : "case \(index):")
            indent += "    "
            guardOrNil(["\(member.name) == nil", "let value = \(reads[index])"])
            line("\(member.name) = value")
            indent.removeLast(4)
        }
        line("}")
        indent.removeLast(4)
        line("}")
        let required = wire.members.filter { !($0.isOptional || $0.isNullable) }.map(\.name)
        if !required.isEmpty { guardRead(required) }
        let arguments = wire.members.map { member in
            member.isOptional || member.isNullable
                ? "\(member.name): \(member.name) ?? nil" : "\(member.name): \(member.name)"
        }
        wrapped(open: "return Self(", items: arguments, close: ")", separator: ",")
        indent.removeLast(4)
    }

    /// The body of a straight pass: the object as Tally's clients write it (compact, members in the order written,
    /// each optional one present or not) read as a run of literals (`{"reps":`, `,"weight":`) and values, with no
    /// member loop, no key lookup and no duplicate bookkeeping; `nil` on the first difference, and `init?(direct:)`
    /// reads the object member by member from its start. Whitespace or another order stops it at once, except a
    /// member left out of the schema's order after a large one (a workout's optional members after its
    /// exercises): that object's members are then read twice, never more, since its elements read straight.
    /// - Parameters:
    ///   - reads: each member's read, by its position in `wire.written`.
    ///   - selective: the read of the member written last, given the cursor and the value read so far (that
    ///     member empty), instead of its own read (`x-swift-selective`).
    mutating func straightBody(_ wire: WireStruct, reads: [String], selective: String?) {
        indent += "    "
        // What is known, while generating, of the members before this one: none was written, one surely was, or
        // only the run knows (optional members only so far).
        enum Written { case none, some, unknown }
        var written = Written.none
        let members = wire.written
        let opensAlone = members.first.map { $0.isOptional || $0.isNullable } ?? true
        if opensAlone { line("guard cursor.literal(\"{\") else { return nil }") }
        if opensAlone, !members.isEmpty { line("var written = false") }
        for (index, member) in members.enumerated() {
            let key = "\\\"\(member.key)\\\":"
            let literal: String
            switch written {
            case .none: literal = "cursor.literal(\"\(index == 0 && !opensAlone ? "{" : "")\(key)\")"
            case .some: literal = "cursor.literal(\",\(key)\")"
            case .unknown: literal = "(written ? cursor.literal(\",\(key)\") : cursor.literal(\"\(key)\"))"
            }
            if let selective, index == members.count - 1 {
                // The value so far, the member empty, for `selective` to look at; the member read into it after.
                guardOrNil([literal])
                let arguments = wire.members.map { "\($0.name): \($0.key == member.key ? "[]" : $0.name)" }
                wrapped(open: "var value = Self(", items: arguments, close: ")", separator: ",")
                guardOrNil(["let \(member.name) = \(selective)", "cursor.literal(\"}\")"])
                line("value.\(member.name) = \(member.name)")
                line("return value")
                indent.removeLast(4)
                return
            }
            if member.isOptional || member.isNullable {
                line("var \(member.name): \(member.memberType.swift)? = nil")
                line("if \(literal) {")
                line("    guard let value = \(reads[index]) else { return nil }")
                line("    \(member.name) = value")
                if written == .unknown || written == .none { line("    written = true") }
                line("}")
                if written == .none { written = .unknown }
            } else {
                guardOrNil([literal, "let \(member.name) = \(reads[index])"])
                written = .some
            }
        }
        line("guard cursor.literal(\"}\") else { return nil }")
        // Every member passed as it is: `?? nil` on a member that may be left out would copy it, and a workout's
        // reference-counted members would be retained and released once more each.
        wrapped(
            open: "return Self(", items: wire.members.map { "\($0.name): \($0.name)" }, close: ")", separator: ",")
        indent.removeLast(4)
    }

    /// `guard` the conditions `else { return nil }`.
    private mutating func guardOrNil(_ conditions: [String]) { guardElse(conditions, "return nil") }

    /// The direct read of `member`'s value: an optional of its type (of its optional type, for a member that may
    /// be null or left out), `nil` when the value is not plainly of the type.
    private static func directRead(_ member: WireStruct.Member, in wire: WireStruct) throws(GeneratorError) -> String {
        guard let read = valueRead(member.memberType) else {
            throw GeneratorError("\(wire.source): no direct read for \(member.key) (\(member.type))")
        }
        let mayBeNil = member.isOptional || member.isNullable
        // Every read is a call on `$0`: on `cursor` itself, or wrapped by `nullable`.
        return mayBeNil ? "cursor.nullable({ \(read) })" : "cursor." + read.dropFirst(3)
    }

    /// The direct read of a value of `type` as a call on `$0` (a cursor), or `nil` for a type without one.
    static func valueRead(_ type: MemberType) -> String? {
        switch type {
        case .scalar("Int"): "$0.int()"
        case .scalar("Double"): "$0.double()"
        case .scalar("Bool"): "$0.bool()"
        case .scalar("String"): "$0.string()"
        // A date is exactly ten characters: read in place, without looking for the closing quote.
        case .text("LocalDate"): "$0.fixedText(width: 10, LocalDate.init(checkedUTF8:))"
        // Parsed from text: a month is short, and a zone's name may have escapes (`Europe\/Berlin`).
        case .text("YearMonth"): "$0.string().flatMap({ try? YearMonth(parsing: $0) })"
        case .text("ZoneName"): "$0.string().flatMap(ZoneName.init(_:))"
        case .text(let type): "$0.text({ try? \(type)(utf8: $0) })"
        case .closedSet(let type): "$0.text(\(type).init(utf8Symbol:))"
        case .wireStruct(let type): "$0.value(of: \(type).self)"
        case .array(.wireStruct(let type), false): "$0.array(of: \(type).self)"
        case .array(.scalar("String"), false): "$0.array({ $0.string() })"
        case .array(.closedSet(let type), false): "$0.array({ $0.text(\(type).init(utf8Symbol:)) })"
        default: nil
        }
    }
}
