/// Encodes `Encodable` values to compact JSON bytes, written directly (no intermediate tree), as a drop-in for
/// the way Tally used Foundation's `JSONEncoder` with `.withoutEscapingSlashes`.
///
/// Same output as Foundation for the same value, except member order: members come in the order the value
/// encodes them (deterministic), where Foundation's order depends on hashing. Numbers are written as Foundation
/// writes them (`5`, not `5.0`; shortest round-trip text), NaN and infinities are refused with Foundation's
/// `EncodingError`, and a nested value that encodes nothing becomes `{}`.
///
/// - Important: A key encoded twice in one object is written twice (Foundation keeps one); Tally's types never
///   do that. Containers must be used in stack order (always true of synthesized and Tally's own conformances);
///   otherwise the encode throws instead of writing wrong JSON.
public struct TallyJSONEncoder: Sendable {
    /// Handed to every `Encoder`, as `JSONEncoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Whether array elements that are `JSONFastEncodable` write themselves (the default). Off, every value goes
    /// through its `encode(to:)`: for checking that a fast path writes the same bytes.
    public var usesFastPaths = true

    public init() {}

    /// The JSON bytes of `value`.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, a top-level value that encodes nothing, or
    ///   out-of-order container use.
    public func encodeToBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        let writer = JSONByteWriter(
            userInfo: userInfo.isEmpty ? [:] : userInfo.mapValues { $0 as Any }, usesFastPaths: usesFastPaths)
        try value.encode(to: JSONValueEncoder(writer: writer, depth: 0, slotStart: 0))
        writer.closeFrames(deeperThan: 0)
        if let failure = writer.failure { throw failure }
        guard !writer.bytes.isEmpty else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return writer.bytes
    }
}
