/// A parsed JSON document as a flat array of nodes in document order (the "tape"), over a copy of its bytes.
///
/// Why flat: a request of 3,650 daily records is ~40,000 values. One contiguous buffer of small structs costs one
/// allocation and stays cache friendly, where a tree of enums with `[String: JSONValue]` members costs one or more
/// allocations per value. Strings and numbers are not converted while parsing: a node keeps the byte range, and
/// the decoder converts only what a `Decodable` type asks for, straight into the type it asks for.
///
/// Layout: a container's node is followed by its descendants; `next` is the index just past its last descendant,
/// so siblings are one hop apart. An object's members are a key node (a string) followed by the value's subtree.
///
/// Storage is manual (this class owns both buffers and frees them in `deinit`) because decoding reads nodes and
/// bytes tens of thousands of times per document: through arrays each read paid retain/release traffic that cost
/// more than the reading. The parser fills the buffers (`JSONNodeWriter`) and hands them over once the document is
/// valid, so a tape never changes. Nothing escapes the tape's lifetime: decoders hold the document that holds it.
final class JSONTape {
    /// The document's bytes, validated: every string node's range is valid UTF-8 with well-formed escapes.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Every node of the document.
    let nodes: UnsafeBufferPointer<JSONNode>

    /// Takes ownership of both buffers (allocated with `allocate(capacity:)`), which the tape frees.
    init(adoptingBytes bytes: UnsafeBufferPointer<UInt8>, nodes: UnsafeBufferPointer<JSONNode>) {
        self.bytes = bytes
        self.nodes = nodes
    }

    deinit {
        nodes.baseAddress.map { UnsafeMutablePointer(mutating: $0).deallocate() }
        bytes.baseAddress.map { UnsafeMutablePointer(mutating: $0).deallocate() }
    }

    /// Objects up to this many members are checked for duplicate keys (larger ones are indexed when decoded).
    static let duplicateCheckLimit: UInt32 = 16
}

/// One JSON value (or object key) on the tape.
struct JSONNode: Sendable {
    enum Kind: UInt8, Sendable {
        case null, `true`, `false`, number, string, array, object
    }

    var kind: Kind
    /// For strings: the raw bytes contain a backslash escape. For numbers: a fraction or an exponent is present.
    /// For objects: two keys may be equal (or a key has escapes, so the parser could not tell).
    var isComplex: Bool
    /// Strings: first byte after the opening quote. Numbers: first byte of the number.
    var start: UInt32
    /// Strings and numbers: byte length (raw, escapes included). Arrays: element count. Objects: member count.
    var length: UInt32
    /// Index of the node after this one's subtree.
    var next: UInt32
    // No parent link: 16 bytes a node instead of 20, a fifth less memory for the decoder to stream through after
    // parsing. Only coding paths need to go up, and they are rebuilt from the root (see `JSONDocument`).
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
