/// A JSON number that the requested type cannot hold: a fraction or more than 64 bits for an integer type, or a
/// magnitude beyond a double's range.
///
/// Deliberately not a `DecodingError` while it travels up through `init(from:)` implementations: Foundation's
/// `JSONDecoder` behaves the same way (its internal error only becomes `DecodingError.dataCorrupted` with an empty
/// coding path at the top), and Tally's field-naming code relies on telling the two apart. `TallyJSONDecoder`
/// converts it at the top exactly as Foundation does.
public struct JSONNumberNotRepresentable: Error, Hashable, Sendable, CustomStringConvertible {
    /// The number as written.
    public let text: String
    /// The type asked for, e.g. `Int`.
    public let typeName: String

    public var description: String { "Number \(text) is not representable as \(typeName)" }
}
