/// A `Decoder` positioned on one value of a parsed document.
///
/// Three words (document, node, detached path), so that passing it as `any Decoder` fits the existential's inline
/// buffer and descending into a record allocates nothing but the keyed container box the standard library makes.
struct JSONValueDecoder: Decoder {
    let document: JSONDocument
    /// The node on the tape, or `JSONValueDecoder.absent` for a member that is not in the document (reads as null).
    let node: Int
    /// Only for absent members: where they would be.
    let detachedPath: DetachedCodingPath?

    static let absent = -1

    init(document: JSONDocument, node: Int) {
        self.document = document
        self.node = node
        self.detachedPath = nil
    }

    /// A decoder for a member that is not there, as Foundation's `superDecoder(forKey:)` gives: it reads as null.
    init(document: JSONDocument, absentAt path: [any CodingKey]) {
        self.document = document
        self.node = Self.absent
        self.detachedPath = DetachedCodingPath(path)
    }

    var codingPath: [any CodingKey] { detachedPath?.keys ?? document.codingPath(of: node) }

    /// Always empty: Tally passes nothing to `init(from:)` on the side.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var kind: JSONNode.Kind { node == Self.absent ? .null : document.nodes[node].kind }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try require(.object, expected: .object)
        return KeyedDecodingContainer(JSONKeyedDecodingContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try require(.array, expected: .array)
        return JSONUnkeyedDecodingContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Where this value is, for errors: the path is found by descending from the root, so only errors pay for it.
    var fieldPath: FieldPath { FieldPath(codingPath: codingPath) }

    /// The value is not of the JSON type `expected`.
    func wrongType(_ expected: JSONValueKind) -> JSONDecodingError {
        JSONDecodingError(at: fieldPath, .wrongType(expected: expected, found: JSONValueKind(kind)))
    }

    /// Checks that the value is of `kind`, else throws that it must be `expected`.
    func require(_ kind: JSONNode.Kind, expected: JSONValueKind) throws(JSONDecodingError) {
        guard self.kind == kind else { throw wrongType(expected) }
    }
}
