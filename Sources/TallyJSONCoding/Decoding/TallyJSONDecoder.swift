/// Decodes `Decodable` values from JSON bytes, about an order of magnitude faster than Foundation's `JSONDecoder`
/// on request-sized documents, with errors in Tally's own words.
///
/// Every failure is a `JSONDecodingError`: the `FieldPath` of the member or element at fault and what is wrong with
/// it (`params.records[3].steps: must be an integer, not a string`), worded to be shown to whoever sent the
/// document. A number that its type cannot hold is named at its field like any other wrong value. Strict where
/// Foundation is lenient: RFC 8259 syntax only (no trailing commas), and integers must be exact (`1e-400` is not
/// the integer 0). Where keys repeat, the first occurrence counts, as in Foundation.
///
/// Not supported, because Tally does not use them: key, date, data and non-conforming float strategies; `Date`
/// decodes through its own `Decodable` conformance (seconds since 2001, Foundation's default).
public struct TallyJSONDecoder: Sendable {
    /// Handed to every `Decoder`, as `JSONDecoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init() {}

    /// Decodes a `T` from a whole document.
    /// - Throws: `JSONDecodingError` (a `DecodingError` from a type's `init(from:)` is converted into one), or any
    ///   other error a type's `init(from:)` throws, unchanged.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let tape: JSONTape
        do {
            tape = try JSONParser.parse(bytes)
        } catch {
            throw JSONDecodingError(at: FieldPath(), .notJSON(error))
        }
        let document = JSONDocument(tape: tape, userInfo: userInfo.mapValues { $0 as Any })
        do {
            return try T(from: JSONValueDecoder(document: document, node: 0))
        } catch let error as DecodingError {
            throw JSONDecodingError(error)
        }
    }
}
