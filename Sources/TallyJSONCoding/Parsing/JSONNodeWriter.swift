/// The tape's nodes while parsing: a growable buffer that the parser owns and writes directly, handed to
/// `JSONTape` once the document is valid. Appending is a capacity check and a store; through the tape (a class)
/// every append also reloaded the tape's fields, a tenth of parsing a workout history.
struct JSONNodeWriter {
    private(set) var storage: UnsafeMutablePointer<JSONNode>
    private var capacity: Int
    /// Nodes written so far.
    private(set) var count = 0

    /// Prepares room for about `expectedNodes` nodes (more are made room for as needed).
    init(expectedNodes: Int) {
        capacity = max(expectedNodes, 16)
        storage = UnsafeMutablePointer<JSONNode>.allocate(capacity: capacity)
    }

    mutating func append(_ node: JSONNode) {
        if count == capacity { grow() }
        (storage + count).initialize(to: node)
        count &+= 1
    }

    /// Appends a string, number or literal node whose text is `start..<end` of the document. The document is
    /// under 4 GiB (checked before parsing) and has fewer nodes than bytes, so positions and counts fit `UInt32`
    /// without the checked conversions, which were a tenth of appending a node.
    @inline(__always)
    mutating func appendLeaf(
        _ kind: JSONNode.Kind, isComplex: Bool, small: UInt16 = 0, from start: Int, to end: Int
    ) {
        append(
            JSONNode(
                kind: kind, isComplex: isComplex, small: small, start: UInt32(truncatingIfNeeded: start),
                length: UInt32(truncatingIfNeeded: end &- start), next: UInt32(truncatingIfNeeded: count &+ 1)))
    }

    @inline(never)
    private mutating func grow() {
        let larger = UnsafeMutablePointer<JSONNode>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }

    /// Completes a container's node once its `members` children are parsed. For an object, `keysMayRepeat` says
    /// whether two of its keys had the same `keyMark`; only then are the keys compared (`bytes` is the document).
    mutating func close(_ container: Int, members: UInt32, keysMayRepeat: Bool, bytes: UnsafePointer<UInt8>) {
        storage[container].length = members
        storage[container].next = UInt32(count)
        if storage[container].kind == .object, members > 1 {
            storage[container].isComplex =
                members > JSONTape.duplicateCheckLimit
                || (keysMayRepeat && mayHaveDuplicateKeys(container, bytes: bytes))
        }
    }

    /// One of 64 bits, chosen by the key node `node`'s length and first and last bytes, or `nil` for a key with
    /// escapes (its text is not its bytes). Equal keys get equal bits, so while the keys of an object all have
    /// different bits they are distinct, and the pairwise comparison is skipped: the usual case for request
    /// objects (a set's `reps`, `weight`, `unit`), which made that comparison a twentieth of parsing.
    @inline(__always)
    func keyMark(of node: Int, bytes: UnsafePointer<UInt8>) -> UInt64? {
        let entry = storage[node]
        guard !entry.isComplex else { return nil }
        let length = UInt64(entry.length)
        var mixed = length
        if length > 0 {
            let start = Int(entry.start)
            mixed |= UInt64(bytes[start]) << 32 | UInt64(bytes[start + Int(length) - 1]) << 40
        }
        // Fibonacci hashing: the top six bits of the product depend on every input bit.
        return 1 << ((mixed &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// Whether two keys of the object at `container` are equal, or might be (escaped keys are not compared).
    /// Knowing that they are all distinct lets key lookups start anywhere (see `JSONKeyedDecodingContainer`).
    private func mayHaveDuplicateKeys(_ container: Int, bytes: UnsafePointer<UInt8>) -> Bool {
        let end = Int(storage[container].next)
        var key = container + 1
        while key < end {
            let entry = storage[key]
            if entry.isComplex { return true }
            var earlier = container + 1
            while earlier < key {
                let other = storage[earlier]
                if other.length == entry.length
                    && ShortBytes.equal(bytes + Int(other.start), bytes + Int(entry.start), count: Int(entry.length))
                {
                    return true
                }
                earlier = Int(storage[earlier + 1].next)
            }
            key = Int(storage[key + 1].next)
        }
        return false
    }

    /// The nodes written, for the tape to own.
    var written: UnsafeBufferPointer<JSONNode> { UnsafeBufferPointer(start: storage, count: count) }

    /// Frees the nodes of a document that turned out not to be valid.
    func discard() { storage.deallocate() }
}
