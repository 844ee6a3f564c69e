/// The direct reads of a struct with a member a reader may read its own way (`"x-swift-selective"`: a workout's
/// exercises, which the worker checks where they lie and builds only for the workouts a method shows): the straight
/// pass and the member-by-member read of `init?(direct:)`, with that member's read as a parameter, so that such a
/// reader reads the rest of the struct as the generated read does, by the schema's names.
///
/// `@inlinable`: the worker calls them once per workout of a history, and the read of a member it passes over is a
/// closure it gives, which only inlining makes as cheap as a loop of its own.
extension SwiftWriter {
    mutating func selectiveReads(_ wire: WireStruct) throws(GeneratorError) {
        guard let selective = wire.written.last, selective.isSelective else {
            throw GeneratorError("\(wire.source): the member read its own way is the one written last")
        }
        var reads = try Self.directReads(wire)
        let except = "except `\(selective.key)`, which the closure `\(selective.name):` reads"
        line()
        line("extension \(wire.name) {")
        indent += "    "
        selectiveSignature(
            "straight", selective, closure: "(inout JSONCursor, Self)", attributes: "@inlinable @inline(__always)",
            documentation: "The object written compactly with its members in the schema's order, read straight as "
                + "`init?(direct:)` reads it, \(except): given the cursor at its value and the object read so far "
                + "(every other member, written before it, and `\(selective.name)` empty). `nil` (the cursor left "
                + "anywhere) for anything else.")
        straightBody(wire, reads: reads, selective: "read(&cursor, value)")
        line("}")
        line()
        selectiveSignature(
            "anyOrder", selective, closure: "(inout JSONCursor)", attributes: "@inlinable",
            documentation: "The object read member by member, in any order, as `init?(direct:)` reads it when the "
                + "straight pass stops, \(except), given the cursor at its value.")
        reads[reads.count - 1] = "read(&cursor)"
        anyOrderBody(wire, reads: reads)
        line("}")
        indent.removeLast(4)
        line("}")
    }

    /// A read's documentation, attributes and signature, up to its opening brace: the cursor, and the closure that
    /// reads `member`, given the cursor at its value (and `closure`'s other parameters).
    private mutating func selectiveSignature(
        _ name: String, _ member: WireStruct.Member, closure: String, attributes: String, documentation text: String
    ) {
        documentation(text)
        line(attributes)
        wrapped(
            open: "package static func \(name)(",
            items: ["_ cursor: inout JSONCursor", "\(member.name) read: \(closure) -> \(member.memberType.swift)?"],
            close: ") -> Self? {", separator: ",")
    }
}
