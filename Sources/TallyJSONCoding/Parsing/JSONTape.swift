#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
/// more than the reading. Nothing escapes the tape's lifetime: decoders hold the document that holds the tape.
final class JSONTape {
    /// The document's bytes, validated: every string node's range is valid UTF-8 with well-formed escapes.
    let bytes: UnsafeBufferPointer<UInt8>
    // Unchecked exclusivity: written once per node while parsing, read on every lookup; the runtime's dynamic
    // checks on class properties would cost more than the work. A tape is built and read by one decode at a time.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<JSONNode>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var nodeCount = 0

    /// Copies `input` and prepares room for about `expectedNodes` nodes.
    init(copying input: UnsafeBufferPointer<UInt8>, expectedNodes: Int) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(input.count, 1))
        _ = copy.initialize(from: input)
        bytes = UnsafeBufferPointer(rebasing: copy[0..<input.count])
        capacity = max(expectedNodes, 16)
        storage = UnsafeMutablePointer<JSONNode>.allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
        bytes.baseAddress.map { UnsafeMutablePointer(mutating: $0).deallocate() }
    }

    /// The nodes written so far (all of them once parsing is done).
    var nodes: UnsafeBufferPointer<JSONNode> { UnsafeBufferPointer(start: storage, count: nodeCount) }

    func append(_ node: JSONNode) {
        if nodeCount == capacity {
            let larger = UnsafeMutablePointer<JSONNode>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: storage, count: nodeCount)
            storage.deallocate()
            storage = larger
            capacity *= 2
        }
        (storage + nodeCount).initialize(to: node)
        nodeCount += 1
    }

    /// Completes a container's node once its children are parsed.
    func close(_ container: Int, count: UInt32) {
        storage[container].length = count
        storage[container].next = UInt32(nodeCount)
        if storage[container].kind == .object, count > 1 {
            storage[container].isComplex = count > Self.duplicateCheckLimit || mayHaveDuplicateKeys(container)
        }
    }

    /// Objects up to this many members are checked for duplicate keys (larger ones are indexed when decoded).
    static let duplicateCheckLimit: UInt32 = 16

    /// Whether two keys of the object at `container` are equal, or might be (escaped keys are not compared).
    /// Knowing that they are all distinct lets key lookups start anywhere (see `JSONKeyedDecodingContainer`).
    private func mayHaveDuplicateKeys(_ container: Int) -> Bool {
        let end = Int(storage[container].next)
        var key = container + 1
        while key < end {
            let entry = storage[key]
            if entry.isComplex { return true }
            var earlier = container + 1
            while earlier < key {
                let other = storage[earlier]
                if other.length == entry.length
                    && memcmp(bytes.baseAddress! + Int(other.start), bytes.baseAddress! + Int(entry.start),
                              Int(entry.length)) == 0
                {
                    return true
                }
                earlier = Int(storage[earlier + 1].next)
            }
            key = Int(storage[key + 1].next)
        }
        return false
    }
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
