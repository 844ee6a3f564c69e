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

    var userInfo: [CodingUserInfoKey: Any] { document.userInfo }

    var kind: JSONNode.Kind { node == Self.absent ? .null : document.nodes[node].kind }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch kind {
        case .object:
            return KeyedDecodingContainer(JSONKeyedDecodingContainer<Key>(decoder: self))
        case .null:
            throw DecodingError.valueNotFound(
                [String: Any].self,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        default:
            throw typeMismatch([String: Any].self)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch kind {
        case .array:
            return JSONUnkeyedDecodingContainer(decoder: self)
        case .null:
            throw DecodingError.valueNotFound(
                [Any].self,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        default:
            throw typeMismatch([Any].self)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Foundation's wording: "Expected to decode Int but found a string instead."
    func typeMismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "Expected to decode \(type) but found \(kind.foundationDescription) instead."))
    }

    func valueNotFound(_ type: Any.Type) -> DecodingError {
        DecodingError.valueNotFound(
            type,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }

    /// Checks that the value is of `kind`, else throws what Foundation throws for `type`.
    func require(_ expected: JSONNode.Kind, for type: Any.Type) throws {
        let actual = kind
        guard actual == expected else { throw actual == .null ? valueNotFound(type) : typeMismatch(type) }
    }
}
