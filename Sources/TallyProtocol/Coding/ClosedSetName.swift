/// Decodes a member of a closed set of names (a unit, an activity type, a week start), refusing any other text
/// with the names it could have been, so that every closed set of the contract words its refusals alike:
/// `'kgs' is not a unit: expected "kg" or "lb"`.
enum ClosedSetName {
    /// The case whose raw value `decoder` holds.
    /// - Parameter what: what one name names, with its article ("a unit"), for the message.
    /// - Throws: `JSONDecodingError` for text that names no case (quoted up to 32 characters).
    static func decode<Name: RawRepresentable<String> & CaseIterable>(
        from decoder: any Decoder, what: String
    ) throws -> Name {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let name = Name(rawValue: text) { return name }
        let shown = text.count > 32 ? String(text.prefix(32)) + "…" : text
        let names = Name.allCases.map { "\"\($0.rawValue)\"" }
        let listed = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names[0]
        throw JSONDecodingError(refusing: "'\(shown)' is not \(what): expected \(listed)", in: container)
    }
}
