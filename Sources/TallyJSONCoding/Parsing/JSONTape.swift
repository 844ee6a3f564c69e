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

    /// The buffers, for reads that must not retain the tape (see `JSONTapeView`).
    var view: JSONTapeView { JSONTapeView(bytes: bytes, nodes: nodes) }

    /// Objects up to this many members are checked for duplicate keys (larger ones are indexed when decoded).
    static let duplicateCheckLimit: UInt32 = 16

    /// Zero bytes after the document in `bytes`: a word may be loaded at any byte of the document.
    static let padding = 8
}

/// A tape's two buffers, read without holding the tape: a trivial value, so that the tight loops of decoding
/// (tens of thousands of key comparisons and number reads) copy two pointers instead of retaining and releasing a
/// class reference around each read. Valid while the tape is: only code running under the owning decode has one.
@usableFromInline
struct JSONTapeView {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline let nodes: UnsafeBufferPointer<JSONNode>
}

/// One JSON value (or object key) on the tape.
@usableFromInline
struct JSONNode: Sendable {
    @usableFromInline
    enum Kind: UInt8, Sendable {
        case null, `true`, `false`, number, string, array, object
    }

    @usableFromInline var kind: Kind
    /// For strings: the raw bytes contain a backslash escape. For numbers: a fraction or an exponent is present.
    /// For objects: two keys may be equal (or a key has escapes, so the parser could not tell).
    @usableFromInline var isComplex: Bool
    /// Numbers: the value when it is small and plain, packed by `JSONSmallNumber`, else 0. In the two bytes that
    /// the layout leaves free: the parser has the digits in hand, and reading them again cost the decoder more
    /// than the parser spends (two years of workouts carry ~25,000 numbers like `8` and `62.5`).
    @usableFromInline var small: UInt16 = 0
    /// Strings: first byte after the opening quote. Numbers: first byte of the number.
    @usableFromInline var start: UInt32
    /// Strings and numbers: byte length (raw, escapes included). Arrays: element count. Objects: member count.
    @usableFromInline var length: UInt32
    /// Index of the node after this one's subtree.
    @usableFromInline var next: UInt32
    // No parent link: 16 bytes a node instead of 20, a fifth less memory for the decoder to stream through after
    // parsing. Only coding paths need to go up, and they are rebuilt from the root (see `JSONDocument`).
}
