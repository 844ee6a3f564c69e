/// A parsed JSON document as a flat array of nodes in document order (the "tape"), over the original bytes.
///
/// Why flat: a request of 3,650 daily records is ~40,000 values. One contiguous array of small structs costs one
/// allocation and stays cache friendly, where a tree of enums with `[String: JSONValue]` members costs one or more
/// allocations per value. Strings and numbers are not converted while parsing: a node keeps the byte range, and
/// the decoder converts only what a `Decodable` type asks for, straight into the type it asks for.
///
/// Layout: a container's node is followed by its descendants; `next` is the index just past its last descendant,
/// so siblings are one hop apart. An object's members are a key node (a string) followed by the value's subtree.
struct JSONTape: Sendable {
    /// The document's bytes, validated: every string node's range is valid UTF-8 with well-formed escapes.
    let bytes: [UInt8]
    let nodes: [JSONNode]
}

/// One JSON value (or object key) on the tape.
struct JSONNode: Sendable {
    enum Kind: UInt8, Sendable {
        case null, `true`, `false`, number, string, array, object
    }

    var kind: Kind
    /// For strings: the raw bytes contain a backslash escape. For numbers: a fraction or an exponent is present.
    var isComplex: Bool
    /// Strings: first byte after the opening quote. Numbers: first byte of the number.
    var start: UInt32
    /// Strings and numbers: byte length (raw, escapes included). Arrays: element count. Objects: member count.
    var length: UInt32
    /// Index of the node after this one's subtree.
    var next: UInt32
    /// Index of the enclosing array or object, `JSONNode.noParent` at the top.
    var parent: UInt32

    static let noParent = UInt32.max
}

extension JSONNode.Kind {
    /// How Foundation's `JSONDecoder` names a kind in its "Expected to decode … but found … instead." messages.
    var foundationDescription: String {
        switch self {
        case .null: "null"
        case .true, .false: "bool"
        case .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}
