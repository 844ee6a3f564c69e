/// Writes an object's members straight to the output, each value through a child slot one frame deeper.
struct JSONKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONByteWriter
    let frameIndex: Int
    let frameID: Int

    var codingPath: [any CodingKey] { writer.codingPath(depth: frameIndex) }

    /// Starts member `key` and returns the slot for its value.
    private func member(_ key: Key) throws -> JSONValueEncoder {
        try writer.beginValue(in: frameIndex, frameID: frameID, key: key)
        return JSONValueEncoder(writer: writer, depth: frameIndex + 1, slotStart: writer.bytes.count)
    }

    mutating func encodeNil(forKey key: Key) throws { try member(key).encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try member(key).encode(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try value.encode(to: member(key)) }

    // `encodeIfPresent` for every type: the protocol's defaults leave a `nil` member out, which is right unless the
    // encoder writes nil members as `null`.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encodeOptional(value, forKey: key)
    }

    /// The value, or for `nil` a `null` member or none, as the encoder was told and the keys allow.
    private mutating func encodeOptional<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value {
            try encode(value, forKey: key)
        } else if writer.writesNilMembers, !(Key.self is any JSONOmittingNilMembers.Type) {
            try encodeNil(forKey: key)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        slot(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        slot(for: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { slot(for: Key(stringValue: JSONCodingKey.super.stringValue)) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { slot(for: key) }

    /// `member(_:)` for the non-throwing requirements: a misuse is recorded and thrown when the encode ends.
    private func slot(for key: Key?) -> JSONValueEncoder {
        do {
            guard let key else {
                throw EncodingError.invalidValue(
                    "super", .init(codingPath: codingPath, debugDescription: "\(Key.self) has no key \"super\""))
            }
            return try member(key)
        } catch let error as EncodingError {
            writer.record(error)
        } catch {}
        return JSONValueEncoder(writer: writer, depth: writer.frames.count, slotStart: writer.bytes.count)
    }
}
