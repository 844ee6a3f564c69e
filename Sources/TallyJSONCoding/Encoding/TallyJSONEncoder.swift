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
@usableFromInline package struct TallyJSONEncoder: Sendable {
    /// Whether values that are `JSONFastEncodable` write themselves (the default). Off, every value goes through its
    /// `encode(to:)`: for checking that a fast path writes the same bytes.
    @usableFromInline package var usesFastPaths = true
    /// What an optional member that is `nil` becomes: left out (the default, as with Foundation) or `null`.
    @usableFromInline package var nilMembers = NilMembers.omitted

    /// What `encodeIfPresent` writes for `nil`, the call that synthesized conformances make for every optional
    /// member.
    @usableFromInline package enum NilMembers: Sendable {
        /// Leave the member out: a request's absent param takes its default.
        case omitted
        /// Write `"member": null`: a response that shows every member, null where there is nothing, needs no
        /// hand-written `encode(to:)` to say so. A type whose absent members mean "does not apply" marks its
        /// `CodingKeys` `JSONOmittingNilMembers` and keeps them out.
        case null
    }

    @usableFromInline package init() {}

    /// The JSON bytes of `value`.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, a top-level value that encodes nothing, or
    ///   out-of-order container use.
    @usableFromInline package func encodeToBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        let writer = JSONByteWriter(usesFastPaths: usesFastPaths, writesNilMembers: nilMembers == .null)
        try JSONValueEncoder(writer: writer, depth: 0, slotStart: 0).write(value)
        writer.closeFrames(deeperThan: 0)
        if let failure = writer.failure { throw failure }
        guard !writer.bytes.isEmpty else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return writer.bytes.array()
    }
}

/// The coding keys of a type whose `nil` members are left out even by an encoder that writes nil members as `null`
/// (`TallyJSONEncoder.NilMembers.null`): for members whose absence says something, such as sections of a result
/// that do not apply to it. A marker on the keys rather than an `encode(to:)` of its own, so the type's members
/// are still declared once.
@usableFromInline package protocol JSONOmittingNilMembers: CodingKey {}
