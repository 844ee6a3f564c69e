/// One decode's shared state: the tape and the lookup hints. Decoders and containers are small structs that point
/// here, so that descending into a value costs no allocation.
final class JSONDocument {
    let tape: JSONTape
    /// The tape's buffers (see `JSONTapeView`), valid as long as `tape`, which this object keeps.
    let view: JSONTapeView
    /// The tape's nodes, read directly by the containers.
    var nodes: UnsafeBufferPointer<JSONNode> { view.nodes }
    /// The object of the latest key lookup and the key node after the one it found: synthesized `init(from:)`
    /// reads members in declaration order, usually the order they were written in, so the next lookup in the same
    /// object most often matches right there.
    /// (Unchecked exclusivity: one decode, one thread, and never accessed across a call; see `JSONTape`.)
    @exclusivity(unchecked) var keyHint = (object: -1, key: 0)
    /// The element type whose `JSONFastDecodable` conformance was looked up last, and the answer.
    @exclusivity(unchecked) var fastPathCheck: (type: ObjectIdentifier, fastType: (any JSONFastDecodable.Type)?)?

    init(tape: JSONTape) {
        self.tape = tape
        self.view = tape.view
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
            if view.key(at: keyNode, equals: name) {
                keyHint = (object, Int(nodes[valueNode].next))
                return valueNode
            }
            keyNode = Int(nodes[valueNode].next)
            if keyNode >= end { keyNode = first }
        } while keyNode != start
        return nil
    }

    /// The coding path of a value node: member names and array positions from the top, found by descending from
    /// the root along the skip links (a tape has no parent links). Only errors and the rare caller that reads
    /// `codingPath` pay for it; decoding itself never tracks one.
    func codingPath(of node: Int) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var container = 0
        while container != node {
            guard let (key, child) = childContaining(node, in: container) else { break }
            keys.append(key)
            container = child
        }
        return keys
    }

    /// The key and the node of the member or element of the container `container` whose subtree holds `node`.
    private func childContaining(_ node: Int, in container: Int) -> (key: any CodingKey, child: Int)? {
        let end = Int(nodes[container].next)
        guard node > container, node < end else { return nil }
        switch nodes[container].kind {
        case .object:
            var keyNode = container + 1
            while keyNode < end {
                let value = keyNode + 1
                let valueEnd = Int(nodes[value].next)
                if node >= value && node < valueEnd {
                    return (JSONCodingKey(stringValue: view.string(at: keyNode)), value)
                }
                keyNode = valueEnd
            }
        case .array:
            var element = container + 1
            var position = 0
            while element < end {
                let elementEnd = Int(nodes[element].next)
                if node < elementEnd { return (JSONCodingKey(intValue: position), element) }
                element = elementEnd
                position += 1
            }
        default:
            break
        }
        return nil
    }
}

/// The coding path of a decoder for a member that is absent (`superDecoder(forKey:)` on a missing key): it has no
/// node to derive a path from.
final class DetachedCodingPath {
    let keys: [any CodingKey]

    init(_ keys: [any CodingKey]) { self.keys = keys }
}
