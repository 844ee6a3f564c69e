/// Writes an array's elements straight to the output, each through a child slot one frame deeper.
struct JSONUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let writer: JSONByteWriter
    let frameIndex: Int
    let frameID: Int

    var codingPath: [any CodingKey] { writer.codingPath(depth: frameIndex) }

    var count: Int {
        guard frameIndex < writer.frames.count, writer.frames[frameIndex].id == frameID else { return 0 }
        return writer.frames[frameIndex].count
    }

    /// Starts the next element and returns its slot.
    private func element() throws -> JSONValueEncoder {
        try writer.beginValue(in: frameIndex, frameID: frameID, key: nil)
        return JSONValueEncoder(writer: writer, depth: frameIndex + 1, slotStart: writer.bytes.count)
    }

    mutating func encodeNil() throws { try element().encodeNil() }
    mutating func encode(_ value: Bool) throws { try element().encode(value) }
    mutating func encode(_ value: String) throws { try element().encode(value) }
    mutating func encode(_ value: Double) throws { try element().encode(value) }
    mutating func encode(_ value: Float) throws { try element().encode(value) }
    mutating func encode(_ value: Int) throws { try element().encode(value) }
    mutating func encode(_ value: Int8) throws { try element().encode(value) }
    mutating func encode(_ value: Int16) throws { try element().encode(value) }
    mutating func encode(_ value: Int32) throws { try element().encode(value) }
    mutating func encode(_ value: Int64) throws { try element().encode(value) }
    mutating func encode(_ value: UInt) throws { try element().encode(value) }
    mutating func encode(_ value: UInt8) throws { try element().encode(value) }
    mutating func encode(_ value: UInt16) throws { try element().encode(value) }
    mutating func encode(_ value: UInt32) throws { try element().encode(value) }
    mutating func encode(_ value: UInt64) throws { try element().encode(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try element().write(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        slot().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { slot().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { slot() }

    /// `element()` for the non-throwing requirements: a misuse is recorded and thrown when the encode ends.
    private func slot() -> JSONValueEncoder {
        do {
            return try element()
        } catch let error as EncodingError {
            writer.record(error)
        } catch {}
        return JSONValueEncoder(writer: writer, depth: writer.frames.count, slotStart: writer.bytes.count)
    }
}
