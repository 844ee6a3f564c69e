/// One plain JSON object for `JSONFastDecodable`: its members in document order, each with typed reads that
/// convert exactly as the decoder does. Every read answers `nil` for "not the plain case", so that the caller can
/// fall back to `init(from:)`.
///
/// Why document order: a conformer walks the members once and keeps what it knows (`switch member.key(in:
/// Self.fastKeys)`, its `CodingKeys` matched as `JSONKeySet` does), a few integer comparisons per member. Looking each name up instead cost a scan of the keys per read whenever members
/// arrive in another order than the type declares them (Foundation's encoder writes them in hash order): a sixth
/// of decoding two years of workouts. A plain object has at most `JSONTape.duplicateCheckLimit` members and no two
/// keys alike (the parser checked), so each of its members is met once and there is no first-one-wins to mimic.
///
/// Keys are compared with the type's member names in place, with no `String` to bridge, retain or copy. The generic
/// reads are `@inlinable`, so that each element type gets its own specialization instead of looking up
/// `[Element]`'s metadata at run time for every array.
@usableFromInline package struct JSONObjectReader {
    /// The tape's buffers rather than the document: readers live only inside a decode, under the decoder that
    /// owns the tape, and a class reference would cost a retain and a release per read (tens of thousands for a
    /// workout history).
    @usableFromInline let tape: JSONTapeView
    @usableFromInline let node: Int

    @usableFromInline
    init(tape: JSONTapeView, node: Int) {
        self.tape = tape
        self.node = node
    }

    /// A reader of `node` when it is an object that the fast path may read: at most
    /// `JSONTape.duplicateCheckLimit` members with distinct, checked keys (the parser leaves such an object
    /// simple). Anything else is for the decoder's own path.
    @inlinable
    static func plain(_ tape: JSONTapeView, at node: Int) -> JSONObjectReader? {
        let header = tape.nodes[node]
        guard header.kind == .object, !header.isComplex else { return nil }
        return JSONObjectReader(tape: tape, node: node)
    }

    /// The members, in the order they were written.
    @inlinable
    package var members: JSONMembers {
        JSONMembers(tape: tape, key: node + 1, end: Int(tape.nodes[node].next))
    }
}

/// The members of a plain object, in document order (see `JSONObjectReader`).
@usableFromInline package struct JSONMembers: Sequence, IteratorProtocol {
    @usableFromInline let tape: JSONTapeView
    @usableFromInline var key: Int
    @usableFromInline let end: Int

    @usableFromInline
    init(tape: JSONTapeView, key: Int, end: Int) {
        self.tape = tape
        self.key = key
        self.end = end
    }

    @inlinable
    package mutating func next() -> JSONMember? {
        guard key < end else { return nil }
        let member = JSONMember(tape: tape, keyNode: key)
        key = member.following
        return member
    }
}

/// One member of a plain object: which of its type's keys it is, and typed reads of its value.
@usableFromInline package struct JSONMember {
    @usableFromInline let tape: JSONTapeView
    /// The key's node; the value's node is the one after it.
    @usableFromInline let keyNode: Int

    @usableFromInline
    init(tape: JSONTapeView, keyNode: Int) {
        self.tape = tape
        self.keyNode = keyNode
    }

    @inlinable var value: Int { keyNode + 1 }
    @inlinable var kind: JSONNode.Kind { tape.nodes[value].kind }
    /// The key node of the next member (or the end of the object).
    @inlinable var following: Int { Int(tape.nodes[value].next) }

    /// Which of `keys` this member is called, or `nil` for a member the type does not read (ignored, as
    /// `init(from:)` ignores it). Inlined, so that the match loop is specialized for the type's keys.
    @inlinable @inline(__always)
    package func key<Key>(in keys: JSONKeySet<Key>) -> Key? {
        let entry = tape.nodes[keyNode]
        guard !entry.isComplex else { return keys.key(named: tape.string(at: keyNode)) }
        return keys.key(spelledBy: tape.bytes.baseAddress! + Int(entry.start), count: Int(entry.length))
    }

    /// An integer: `nil` unless a number and an integer that fits. A small one is read inline.
    @inlinable
    package var int: Int? {
        let entry = tape.nodes[value]
        guard entry.kind == .number else { return nil }
        return JSONSmallNumber.integer(entry.small) ?? tape.int(at: value)
    }

    /// An optional integer: `.some(nil)` when null, `nil` when not a fitting integer.
    @inlinable
    package var optionalInt: Int?? {
        kind == .null ? .some(nil) : int.map { .some($0) }
    }

    /// A double: `nil` unless a number a double holds. A small one is read inline.
    @inlinable
    package var double: Double? {
        let entry = tape.nodes[value]
        guard entry.kind == .number else { return nil }
        return JSONSmallNumber.double(entry.small) ?? tape.double(at: value)
    }

    /// An optional double: `.some(nil)` when null, `nil` when not a number a double holds.
    @inlinable
    package var optionalDouble: Double?? {
        kind == .null ? .some(nil) : double.map { .some($0) }
    }

    /// A string: `nil` unless a string.
    @usableFromInline package var string: String? {
        kind == .string ? tape.string(at: value) : nil
    }

    /// An array of strings: `nil` unless an array whose every element is a string.
    @usableFromInline package var strings: [String]? {
        guard let (first, count) = arrayElements else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(count)
        var element = first
        for _ in 0..<count {
            guard tape.nodes[element].kind == .string else { return nil }
            strings.append(tape.string(at: element))
            element += 1  // a string is a leaf: the next element is the next node
        }
        return strings
    }

    /// An optional string: `.some(nil)` when null, `nil` when not a string.
    @usableFromInline package var optionalString: String?? {
        kind == .null ? .some(nil) : string.map { .some($0) }
    }

    /// A string parsed straight from its UTF-8 bytes (a date, a timestamp, a unit symbol), without building a
    /// `String`: `nil` unless a string without escapes that `parse` accepts. An escaped string is not the plain
    /// case: the fallback decodes it (to the same value, or the same error).
    @inlinable
    package func utf8<Value>(_ parse: (UnsafeBufferPointer<UInt8>) -> Value?) -> Value? {
        unescapedString.flatMap(parse)
    }

    /// The bytes of the value when it is a string without escapes (valid while the document is). Inlined: dates,
    /// timestamps and units are read this way, one per element.
    @inlinable
    var unescapedString: UnsafeBufferPointer<UInt8>? {
        kind == .string ? tape.unescapedBytes(at: value) : nil
    }

    /// An array whose every element is a plain `Element` object: `nil` unless all of it takes the fast path (then
    /// the caller falls back, and the standard decoder reports exactly what is wrong).
    @inlinable @inline(__always)
    package func array<Element: JSONFastDecodable>(of type: Element.Type) -> [Element]? {
        guard let (first, count) = arrayElements else { return nil }
        guard _isPOD(Element.self) else { return arrayInPlace(of: type, first: first, count: count) }
        // Plain-data elements (a set: reps, weight, unit) are built in scratch space and copied once: building
        // in place needs `Array(unsafeUninitializedCapacity:)`, whose allocation is an unspecialized runtime call
        // that looks `_ContiguousArrayStorage<Element>`'s metadata up again for each of thousands of arrays, where
        // the copy's allocation is inlined here with a cached metadata accessor.
        return withUnsafeTemporaryAllocation(of: Element.self, capacity: count) { scratch in
            var child = first
            for index in 0..<count {
                guard let reader = plainObject(at: child), let element = Element(fastFrom: reader) else { return nil }
                scratch.initializeElement(at: index, to: element)
                child = node(after: child)
            }
            return Array(UnsafeBufferPointer(scratch))
        }
    }

    /// `array(of:)` for elements that are not plain data, written in place (a copy would retain and release).
    @inlinable
    func arrayInPlace<Element: JSONFastDecodable>(of type: Element.Type, first: Int, count: Int) -> [Element]? {
        var isPlain = true
        let elements = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            var child = first
            while initialized < count {
                guard let reader = plainObject(at: child), let element = Element(fastFrom: reader) else {
                    isPlain = false
                    return
                }
                buffer.initializeElement(at: initialized, to: element)
                initialized += 1
                child = node(after: child)
            }
        }
        return isPlain ? elements : nil
    }

    /// An optional plain `Nested` object: `.some(nil)` when null, `nil` when not plain.
    @inlinable
    package func optionalObject<Nested: JSONFastDecodable>(of type: Nested.Type) -> Nested?? {
        guard !isNull else { return .some(nil) }
        guard let reader = plainObject(at: value) else { return nil }
        return Nested(fastFrom: reader).map { .some($0) }
    }

    /// The first element's node and the element count when the value is an array, else `nil`.
    @usableFromInline
    var arrayElements: (first: Int, count: Int)? {
        kind == .array ? (value + 1, Int(tape.nodes[value].length)) : nil
    }

    @usableFromInline
    var isNull: Bool { kind == .null }

    /// A reader of `node` when it is a plain object (see `JSONObjectReader.plain`).
    @inlinable
    func plainObject(at node: Int) -> JSONObjectReader? { JSONObjectReader.plain(tape, at: node) }

    /// The node after `node`'s subtree: its next sibling in an array.
    @inlinable
    func node(after node: Int) -> Int { Int(tape.nodes[node].next) }
}
