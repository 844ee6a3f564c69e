/// One decode's shared state: the tape and the caller's `userInfo`. Decoders and containers are small structs
/// that point here, so that descending into a value costs no allocation.
final class JSONDocument {
    let tape: JSONTape
    /// The tape's nodes, read directly by the containers (valid as long as `tape`, which this object keeps).
    let nodes: UnsafeBufferPointer<JSONNode>
    let userInfo: [CodingUserInfoKey: Any]
    /// The object of the latest key lookup and the key node after the one it found: synthesized `init(from:)`
    /// reads members in declaration order, usually the order they were written in, so the next lookup in the same
    /// object most often matches right there.
    /// (Unchecked exclusivity: one decode, one thread, and never accessed across a call; see `JSONTape`.)
    @exclusivity(unchecked) var keyHint = (object: -1, key: 0)
    /// The element type whose `JSONFastDecodable` conformance was looked up last, and the answer.
    @exclusivity(unchecked) var fastPathCheck: (type: ObjectIdentifier, fastType: (any JSONFastDecodable.Type)?)?

    init(tape: JSONTape, userInfo: [CodingUserInfoKey: Any]) {
        self.tape = tape
        self.nodes = tape.nodes
        self.userInfo = userInfo
    }

    /// The value node of the first member called `name`, or `nil`.
    func member(named name: String, inObject object: Int) -> Int? {
        var name = name
        return name.withUTF8 { member(utf8: $0, inObject: object) }
    }

    /// The value node of the first member whose key spells `name` (UTF-8), by a scan of the object's keys.
    func member(utf8 name: UnsafeBufferPointer<UInt8>, inObject object: Int) -> Int? {
        let entry = nodes[object]
        let first = object + 1
        let end = Int(entry.next)
        guard end > first else { return nil }
        // With distinct keys any match is the match, so the scan may start at the hint and wrap around; with
        // possible duplicates it starts at the first member, so that the first occurrence wins (as in Foundation).
        let start = !entry.isComplex && keyHint.object == object && keyHint.key < end ? keyHint.key : first
        var keyNode = start
        repeat {
            let valueNode = keyNode + 1
            if tape.key(at: keyNode, equals: name) {
                keyHint = (object, Int(nodes[valueNode].next))
                return valueNode
            }
            keyNode = Int(nodes[valueNode].next)
            if keyNode >= end { keyNode = first }
        } while keyNode != start
        return nil
    }

    /// The coding path of a node, rebuilt from the tape's parent links: member names and array positions from the
    /// top. Only errors and the rare caller that reads `codingPath` pay for it; decoding itself never tracks one.
    func codingPath(of node: Int) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var current = node
        while nodes[current].parent != JSONNode.noParent {
            let parent = Int(nodes[current].parent)
            if nodes[parent].kind == .object {
                keys.append(JSONCodingKey(stringValue: tape.string(at: current - 1)))
            } else {
                var position = 0
                var sibling = parent + 1
                while sibling != current {
                    sibling = Int(nodes[sibling].next)
                    position += 1
                }
                keys.append(JSONCodingKey(intValue: position))
            }
            current = parent
        }
        return keys.reversed()
    }
}

/// The coding path of a decoder for a member that is absent (`superDecoder(forKey:)` on a missing key): it has no
/// node to derive a path from.
final class DetachedCodingPath {
    let keys: [any CodingKey]

    init(_ keys: [any CodingKey]) { self.keys = keys }
}
