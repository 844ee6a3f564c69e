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
        count += 1
    }

    @inline(never)
    private mutating func grow() {
        let larger = UnsafeMutablePointer<JSONNode>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }

    /// Completes a container's node once its `members` children are parsed; `bytes` is the document, for
    /// comparing keys.
    mutating func close(_ container: Int, members: UInt32, bytes: UnsafePointer<UInt8>) {
        storage[container].length = members
        storage[container].next = UInt32(count)
        if storage[container].kind == .object, members > 1 {
            storage[container].isComplex =
                members > JSONTape.duplicateCheckLimit || mayHaveDuplicateKeys(container, bytes: bytes)
        }
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
