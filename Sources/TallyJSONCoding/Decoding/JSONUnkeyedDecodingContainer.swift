/// An unkeyed container over an array node: a cursor that hops from element to element along the tape.
struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: JSONValueDecoder
    let count: Int?
    private(set) var currentIndex = 0
    /// The node of the element at `currentIndex`.
    private var cursor: Int

    init(decoder: JSONValueDecoder) {
        self.decoder = decoder
        self.count = Int(decoder.document.nodes[decoder.node].length)
        self.cursor = decoder.node + 1
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var isAtEnd: Bool { currentIndex >= count! }

    /// The current element's decoder, moving past it. - Throws: `.missing` at the end, at the element's path.
    private mutating func nextElement(_ type: Any.Type) throws(JSONDecodingError) -> JSONValueDecoder {
        guard !isAtEnd else { throw missingElement() }
        let element = JSONValueDecoder(document: decoder.document, node: cursor)
        cursor = Int(decoder.document.nodes[cursor].next)
        currentIndex += 1
        return element
    }

    /// The element a type asked for past the array's end.
    private func missingElement() -> JSONDecodingError {
        JSONDecodingError(at: FieldPath(codingPath: codingPath).index(currentIndex), .missing)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw missingElement() }
        guard decoder.document.nodes[cursor].kind == .null else { return false }
        _ = try nextElement(Any?.self)
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try nextElement(type).decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try nextElement(type).decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try nextElement(type).decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try nextElement(type).decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try nextElement(type).decodeInteger(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try nextElement(type).decodeInteger(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try nextElement(type).decodeInteger(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try nextElement(type).decodeInteger(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try nextElement(type).decodeInteger(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try nextElement(type).decodeInteger(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try nextElement(type).decodeInteger(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try nextElement(type).decodeInteger(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try nextElement(type).decodeInteger(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try nextElement(type).decodeInteger(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let element = try nextElement(type)
        if let fastType = fastType(for: type), let value = Self.fastDecode(fastType, element, as: type) {
            return value
        }
        return try T(from: element)
    }

    /// `T` as `JSONFastDecodable`, if it is. Remembered by the document for the latest element type (arrays of
    /// one type are decoded one after the other, e.g. the sets of each exercise): the conformance lookup costs more
    /// than the fast path saves if it runs per element, and still shows when it runs per array.
    private func fastType<T>(for type: T.Type) -> (any JSONFastDecodable.Type)? {
        let document = decoder.document
        let identifier = ObjectIdentifier(type)
        if let check = document.fastPathCheck, check.type == identifier { return check.fastType }
        let fastType = type as? any JSONFastDecodable.Type
        document.fastPathCheck = (identifier, fastType)
        return fastType
    }

    /// The element through the fast path of `Fast` (which is `T`) when it is a plain object, else `nil`, and the
    /// caller decodes it the standard way, with its exact errors.
    private static func fastDecode<Fast: JSONFastDecodable, T>(
        _ fastType: Fast.Type, _ element: JSONValueDecoder, as type: T.Type
    ) -> T? {
        guard let reader = JSONObjectReader.plain(element.document.view, at: element.node),
            let value = Fast(fastFrom: reader)
        else { return nil }
        // `Fast` is `T` (it is `T` opened as a fast-decodable type): a cast would only ask the runtime to agree.
        return unsafeBitCast(value, to: T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try nextElement(KeyedDecodingContainer<NestedKey>.self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nextElement((any UnkeyedDecodingContainer).self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try nextElement((any Decoder).self) }
}
