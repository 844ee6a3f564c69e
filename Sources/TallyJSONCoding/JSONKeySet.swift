/// The members of a type as its fast paths read and write them, derived from its `CodingKeys`: the type's field
/// names are written once, in its keys, and each fast path is an exhaustive `switch` over the keys, so that a
/// member added to the keys and forgotten on a fast path does not compile. Members are written in the keys'
/// order, the order in which synthesized `encode(to:)` writes them.
///
/// Made once per type, as a `static let` of the conformer (`static let fastKeys = JSONKeySet<CodingKeys>()`), and
/// kept for the life of the process. Matching a key costs a few comparisons: its length picks the one name it can
/// be (or a short chain, where names share a length), whose first and last bytes were loaded as two words when
/// the set was made, and the key's are loaded once to compare with them.
///
/// - Important: `@unchecked Sendable` because the set is two pointers to tables it allocates in `init`, writes there
///   once and never changes or frees. Plain pointers, so that the fast path, which reads the set for every element
///   of every list, copies two words and counts no references (a set of arrays cost a sixth of decoding a
///   workout's sets).
@usableFromInline package struct JSONKeySet<Key: CodingKey & CaseIterable & Sendable>: @unchecked Sendable {
    /// One slot per name length up to `JSONKeySlot.wordCovered` (the slot's index is the length) holding the first
    /// name of that length, then one slot for each further name of a length already taken, chained from the first.
    @usableFromInline let slots: UnsafePointer<JSONKeySlot<Key>>
    /// The keys in declaration order, then what only the slow paths read.
    @usableFromInline let table: UnsafePointer<Table>

    /// The keys and the names as text, for keys longer than two words cover or written with escapes.
    @usableFromInline
    struct Table {
        let keys: [Key]
        let names: [[UInt8]]
    }

    @usableFromInline package init() {
        let keys = Array(Key.allCases)
        let names = keys.map { Array($0.stringValue.utf8) }
        var slots = [JSONKeySlot<Key>](repeating: .empty, count: JSONKeySlot<Key>.wordCovered + 1)
        for (key, name) in zip(keys, names) where name.count <= JSONKeySlot<Key>.wordCovered {
            let slot = name.withUnsafeBufferPointer { JSONKeySlot($0, key: key) }
            guard slots[name.count].key != nil else {
                slots[name.count] = slot
                continue
            }
            var last = name.count
            while slots[last].next >= 0 { last = Int(slots[last].next) }
            slots[last].next = Int32(slots.count)
            slots.append(slot)
        }
        let slotStorage = UnsafeMutablePointer<JSONKeySlot<Key>>.allocate(capacity: slots.count)
        slotStorage.initialize(from: slots, count: slots.count)
        let tableStorage = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        tableStorage.initialize(to: Table(keys: keys, names: names))
        self.slots = UnsafePointer(slotStorage)
        self.table = UnsafePointer(tableStorage)
    }

    /// Every key, in declaration order: what an encoding fast path walks.
    @usableFromInline package var keys: [Key] { table.pointee.keys }

    /// The key whose name the UTF-8 `bytes` spell, or `nil`. Always inlined: each type's fast path gets the lookup
    /// for its own keys.
    @inlinable @inline(__always)
    func key(spelledBy bytes: UnsafePointer<UInt8>, count: Int) -> Key? {
        guard count <= JSONKeySlot<Key>.wordCovered else { return longKey(spelledBy: bytes, count: count) }
        var slot = slots[count]
        let words = JSONKeySlot<Key>.words(of: bytes, count: count)
        while slot.head != words.head || slot.tail != words.tail {
            guard slot.next >= 0 else { return nil }
            slot = slots[Int(slot.next)]
        }
        return slot.key
    }

    /// `key(spelledBy:count:)` for a key longer than two words cover, compared in full.
    @usableFromInline
    func longKey(spelledBy bytes: UnsafePointer<UInt8>, count: Int) -> Key? {
        let key = UnsafeBufferPointer(start: bytes, count: count)
        let table = table.pointee
        return table.names.firstIndex { $0.elementsEqual(key) }.map { table.keys[$0] }
    }

    /// The key named `text` (a key of the document with escapes, already resolved), or `nil`.
    @usableFromInline
    func key(named text: String) -> Key? {
        table.pointee.keys.first { $0.stringValue == text }
    }
}

/// A name of a `JSONKeySet` as keys are compared with it: the words that hold its first and last bytes, and its
/// key. Plain data.
@usableFromInline
struct JSONKeySlot<Key: Sendable>: Sendable {
    @usableFromInline let head: UInt64
    @usableFromInline let tail: UInt64
    /// The name's key; `nil` for a length no name has.
    @usableFromInline let key: Key?
    /// The slot of the next name of the same length, or -1.
    @usableFromInline var next: Int32 = -1

    /// Names up to this many bytes are covered by their two words.
    @inlinable static var wordCovered: Int { 16 }

    /// A length no name has: a first word no key has (no byte of UTF-8 text is 0xFF), so that the comparison
    /// fails without a test of its own.
    static var empty: Self { Self(head: .max, tail: .max, key: nil) }

    private init(head: UInt64, tail: UInt64, key: Key?) {
        (self.head, self.tail, self.key) = (head, tail, key)
    }

    /// The slot of `key`, whose name `utf8` spells (at most `wordCovered` bytes).
    init(_ utf8: UnsafeBufferPointer<UInt8>, key: Key) {
        let padded = Array(utf8) + [UInt8](repeating: 0, count: 16)
        let words = padded.withUnsafeBufferPointer { Self.words(of: $0.baseAddress!, count: utf8.count) }
        self.init(head: words.head, tail: words.tail, key: key)
    }

    /// The first eight bytes of the `count` bytes at `bytes`, and the next eight (up to 16), each as a word with
    /// the bytes past the name zeroed: two loads and two masks, no branch on the length. Reading eight bytes
    /// wherever a key starts is safe because the tape ends in `JSONTape.padding` zero bytes (and a name of the set
    /// is read from a padded copy). A name is compared with keys of its own length only.
    @inlinable @inline(__always)
    static func words(of bytes: UnsafePointer<UInt8>, count: Int) -> (head: UInt64, tail: UInt64) {
        let raw = UnsafeRawPointer(bytes)
        let head = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & mask(count)
        let tail =
            count > 8
            ? UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & mask(count - 8) : 0
        return (head, tail)
    }

    /// The low `count` bytes of a word (all eight from eight on).
    @inlinable @inline(__always)
    static func mask(_ count: Int) -> UInt64 {
        count >= 8 ? .max : (1 &<< UInt64(truncatingIfNeeded: count &* 8)) &- 1
    }
}
