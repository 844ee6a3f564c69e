/// Writes an object's members straight to the output, each value through a child slot one frame deeper.
struct JSONKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONByteWriter
    let frameIndex: Int
    let frameID: Int
    /// Whether `encodeIfPresent(nil)` writes `null`: the encoder says so and the keys do not refuse it
    /// (`JSONOmittingNilMembers`). Decided once per object: the conformance check is a lookup in the runtime.
    let writesNil: Bool

    init(writer: JSONByteWriter, frameIndex: Int, frameID: Int) {
        self.writer = writer
        self.frameIndex = frameIndex
        self.frameID = frameID
        self.writesNil = writer.writesNilMembers && !(Key.self is any JSONOmittingNilMembers.Type)
    }

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
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try member(key).write(value) }

    // `encodeIfPresent` for every type: the protocol's defaults leave a `nil` member out, which is right unless the
    // encoder writes nil members as `null`. A present value takes the same concrete path as with the defaults (a
    // shared generic helper cost a tenth more to encode a request: the container runs unspecialized, so every
    // generic type it names is a metadata lookup).
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNilMember(forKey: key) }
    }

    /// A `nil` member: `null`, or nothing, as the encoder was told and the keys allow.
    private mutating func encodeNilMember(forKey key: Key) throws {
        if writesNil { try encodeNil(forKey: key) }
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
