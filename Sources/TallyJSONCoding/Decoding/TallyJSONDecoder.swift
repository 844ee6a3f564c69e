/// Decodes `Decodable` values from JSON bytes, off a flat tape of the document's values rather than a tree of them
/// (Foundation's `JSONDecoder`), with errors in Tally's own words.
///
/// Every failure is a `JSONDecodingError`: the `FieldPath` of the member or element at fault and what is wrong with
/// it (`params.records[3].steps: must be an integer, not a string`), worded to be shown to whoever sent the
/// document. A number that its type cannot hold is named at its field like any other wrong value. Strict where
/// Foundation is lenient: RFC 8259 syntax only (no trailing commas), and integers must be exact (`1e-400` is not
/// the integer 0). Where keys repeat, the first occurrence counts, as in Foundation.
///
/// Not supported, because Tally does not use them: key, date, data and non-conforming float strategies, and
/// `userInfo`; `Date` decodes through its own `Decodable` conformance (seconds since 2001, Foundation's default).
/// To decode parts of one document as different types, parse it once into a `ParsedJSON`.
@usableFromInline package struct TallyJSONDecoder: Sendable {
    @usableFromInline package init() {}

    /// Decodes a `T` from a whole document.
    /// - Throws: `JSONDecodingError` (a `DecodingError` from a type's `init(from:)` is converted into one), or any
    ///   other error a type's `init(from:)` throws, unchanged.
    @usableFromInline package func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try ParsedJSON(parsing: bytes).decode(T.self)
    }
}
