/// A keyed container over an object node. Members are found by a linear scan of the object's keys, comparing
/// bytes: request objects have a handful of members, for which this beats hashing. Large objects (dictionaries)
/// get an index built once. A key that appears twice resolves to its first occurrence, as in Foundation.
struct JSONKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONValueDecoder
    /// Member name → value node, for objects over `indexThreshold` members.
    private let index: [String: Int]?

    private static var indexThreshold: Int { 16 }

    init(decoder: JSONValueDecoder) {
        self.decoder = decoder
        let tape = decoder.document.view
        let object = decoder.document.nodes[decoder.node]
        guard object.length > Self.indexThreshold else {
            index = nil
            return
        }
        var members: [String: Int] = [:]
        members.reserveCapacity(Int(object.length))
        var keyNode = decoder.node + 1
        while keyNode < Int(object.next) {
            let name = tape.string(at: keyNode)
            if members[name] == nil { members[name] = keyNode + 1 }
            keyNode = Int(tape.nodes[keyNode + 1].next)
        }
        index = members
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        let tape = decoder.document.view
        var keys: [Key] = []
        var seen: Set<String> = []
        var keyNode = decoder.node + 1
        while keyNode < Int(tape.nodes[decoder.node].next) {
            let name = tape.string(at: keyNode)
            if seen.insert(name).inserted, let key = Key(stringValue: name) { keys.append(key) }
            keyNode = Int(tape.nodes[keyNode + 1].next)
        }
        return keys
    }

    /// The value node of `key`, or `nil`.
    func valueNode(for key: Key) -> Int? { valueNode(named: key.stringValue) }

    /// The value node of the first member called `name`, or `nil`.
    func valueNode(named name: String) -> Int? {
        if let index { return index[name] }
        return decoder.document.member(named: name, inObject: decoder.node)
    }

    func contains(_ key: Key) -> Bool { valueNode(for: key) != nil }

    /// The decoder of `key`'s value. - Throws: `.missing` at the member's path when there is no such member.
    func valueDecoder(for key: Key) throws(JSONDecodingError) -> JSONValueDecoder {
        guard let node = valueNode(for: key) else {
            throw JSONDecodingError(at: FieldPath(codingPath: codingPath + [key]), .missing)
        }
        return JSONValueDecoder(document: decoder.document, node: node)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try valueDecoder(for: key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try valueDecoder(for: key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try valueDecoder(for: key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try valueDecoder(for: key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try valueDecoder(for: key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try valueDecoder(for: key).decodeInteger(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try valueDecoder(for: key).decodeInteger(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try valueDecoder(for: key).decodeInteger(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try valueDecoder(for: key).decodeInteger(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try valueDecoder(for: key).decodeInteger(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try valueDecoder(for: key).decodeInteger(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try valueDecoder(for: key).decodeInteger(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try valueDecoder(for: key).decodeInteger(type)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try valueDecoder(for: key).decodeInteger(type)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try valueDecoder(for: key).decodeInteger(type)
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: valueDecoder(for: key)) }

    /// The decoder of `key`'s value unless it is absent or null: one lookup instead of the default
    /// `decodeIfPresent`'s three (contains, decodeNil, decode).
    private func presentValue(for key: Key) -> JSONValueDecoder? {
        guard let node = valueNode(for: key), decoder.document.nodes[node].kind != .null else { return nil }
        return JSONValueDecoder(document: decoder.document, node: node)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try presentValue(for: key).map { try T(from: $0) }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentValue(for: key)?.decode(type)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentValue(for: key)?.decode(type)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try presentValue(for: key)?.decodeInteger(type)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentValue(for: key)?.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try valueDecoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try valueDecoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        memberOrAbsent(valueNode(named: JSONCodingKey.super.stringValue), JSONCodingKey.super)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { memberOrAbsent(valueNode(for: key), key) }

    /// Foundation hands out a decoder of null for a member that is not there, at the member's path.
    private func memberOrAbsent(_ node: Int?, _ key: any CodingKey) -> JSONValueDecoder {
        guard let node else { return JSONValueDecoder(document: decoder.document, absentAt: codingPath + [key]) }
        return JSONValueDecoder(document: decoder.document, node: node)
    }
}
