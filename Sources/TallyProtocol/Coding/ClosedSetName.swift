import TallyJSONCoding

/// A closed set of names on the wire (a unit, an activity type, a chart mode): its cases are its names, and text
/// outside the set is refused with the names it could have been, so that every closed set of the contract words
/// its refusals alike: `'kgs' is not a unit: expected "kg" or "lb"`.
protocol ClosedSetName: RawRepresentable<String>, CaseIterable, Decodable {
    /// What one name names, with its article ("a unit"), for the refusal.
    static var noun: String { get }
}

extension ClosedSetName {
    /// The case whose raw value `decoder` holds.
    /// - Throws: `JSONDecodingError` for text that names no case (quoted up to 32 characters).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let name = Self(rawValue: text) {
            self = name
            return
        }
        let shown = text.count > 32 ? String(text.prefix(32)) + "…" : text
        let names = Self.allCases.map { "\"\($0.rawValue)\"" }
        let listed = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names[0]
        throw JSONDecodingError(refusing: "'\(shown)' is not \(Self.noun): expected \(listed)", in: container)
    }
}
