/// A JSON text parsed once, from which values are decoded without parsing it again: the whole document, or one
/// member of its top-level object.
///
/// For a document whose parts are typed by other parts: a request's `params` have the type of the method its
/// envelope names, so the envelope is decoded first and the params after it, from the same tape. Only valid
/// JSON makes one (the parser refuses the rest), and it is for one thread: decoding keeps lookup hints in it.
@usableFromInline package struct ParsedJSON {
    let document: JSONDocument

    /// Parses `bytes`.
    /// - Throws: `JSONDecodingError` with `.notJSON` at the root for anything but one RFC 8259 JSON text.
    @usableFromInline package init(parsing bytes: [UInt8]) throws(JSONDecodingError) {
        do {
            document = JSONDocument(tape: try JSONParser.parse(bytes))
        } catch {
            throw JSONDecodingError(at: FieldPath(), .notJSON(error))
        }
    }

    /// Decodes the whole document as a `T`.
    /// - Throws: as `TallyJSONDecoder.decode(_:from:)`.
    @usableFromInline package func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try Self.decode(T.self, from: JSONValueDecoder(document: document, node: 0))
    }

    /// Decodes the whole document as a `T` that can read itself: its fast path when the document is the plain
    /// object it expects, `init(from:)` (with its usual errors) otherwise. Chosen over `decode(_:)` wherever the
    /// type is known to be `JSONFastDecodable`, as a request's envelope is.
    @usableFromInline package func decode<T: JSONFastDecodable>(_ type: T.Type) throws -> T {
        let view = document.view
        if let object = JSONObjectReader.plain(view, at: 0), let value = T(fastFrom: object) { return value }
        return try Self.decode(T.self, from: JSONValueDecoder(document: document, node: 0))
    }

    /// Decodes the member `name` of the top-level object as a `T`. A member that is not there reads as `null` at
    /// its path (so a type that accepts null accepts its absence), as does every member of a document that is not
    /// an object: the caller decodes the document itself first and knows what it is.
    /// - Throws: as `TallyJSONDecoder.decode(_:from:)`, at the member's path.
    @usableFromInline package func decode<T: Decodable>(_ type: T.Type, member name: String) throws -> T {
        let root = JSONValueDecoder(document: document, node: 0)
        let node = root.kind == .object ? document.member(named: name, inObject: 0) : nil
        let member =
            node.map { JSONValueDecoder(document: document, node: $0) }
            ?? JSONValueDecoder(document: document, absentAt: [JSONCodingKey(stringValue: name)])
        return try Self.decode(T.self, from: member)
    }

    /// `T(from:)`, with a `DecodingError` that a type throws itself put in Tally's terms.
    private static func decode<T: Decodable>(_ type: T.Type, from decoder: JSONValueDecoder) throws -> T {
        do {
            return try T(from: decoder)
        } catch let error as DecodingError {
            throw JSONDecodingError(error)
        }
    }
}
