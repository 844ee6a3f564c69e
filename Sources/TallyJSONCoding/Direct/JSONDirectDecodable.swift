/// A type that reads itself straight off a document's bytes with a `JSONCursor`, in the one pass that also checks
/// the bytes are JSON: the decoding of request params that arrive by the thousand (daily records, samples,
/// workouts and their sets), without the tape the standard decoder builds first.
///
/// Like `JSONFastDecodable`, a direct read never produces an error: it answers `nil` whenever anything is not the
/// plain case (a member it does not know, a member twice, a missing required member, a value of another kind or
/// out of its type's range, an escape in a string, a list over the limit), and the caller then decodes the whole
/// document with the standard decoder, which produces the same value or words the error. So a conformance must
/// only agree with `init(from:)` on the values it accepts, which the parity tests check on every Protocol example
/// and on generated documents.
///
/// Members may come in any order; a type matches them against its own member names, and each at most once.
///
/// `SendableMetatype`: the worker's method registry keeps a conforming type in a closure every thread calls.
@usableFromInline package protocol JSONDirectDecodable: SendableMetatype {
    /// Reads one value at the cursor (whitespace before it already skipped), or `nil` (the cursor is then left
    /// anywhere: the document goes to the standard decoder).
    init?(direct cursor: inout JSONCursor)
}

extension JSONCursor {
    /// Reads an array of `Element`s, each read directly; `nil` as `array(_:)` says.
    @inlinable @inline(__always)
    package mutating func array<Element: JSONDirectDecodable>(of type: Element.Type) -> [Element]? {
        array { Element(direct: &$0) }
    }

    /// Reads one `Value` directly.
    @inlinable @inline(__always)
    package mutating func value<Value: JSONDirectDecodable>(of type: Value.Type) -> Value? {
        Value(direct: &self)
    }

    /// Reads an object member by member: `member` is called with each key, the cursor before its value; it reads
    /// the value and answers `true`, or `false` to give up (a key it does not know, a member it already read, a
    /// value it cannot read). `nil` when the object is not read to its end.
    @inlinable @inline(__always)
    package mutating func object(_ member: (JSONKeyBytes, inout JSONCursor) -> Bool) -> Bool {
        guard beginObject() else { return false }
        var first = true
        while true {
            guard let more = nextMember(first: first) else { return false }
            guard more else { return true }
            first = false
            guard let key = key(), member(key, &self) else { return false }
        }
    }
}
