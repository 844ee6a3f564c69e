/// An `Encoder` for one value slot: the position where exactly one JSON value goes.
///
/// Three words, like the decoder, so that `any Encoder` needs no allocation. A slot that asks for a keyed
/// container twice (a type encoding several flat parts into one object, as Tally's params do) gets the same
/// object back, as with Foundation.
struct JSONValueEncoder: Encoder {
    let writer: JSONByteWriter
    /// Frames open above this slot when it was created.
    let depth: Int
    /// Byte offset where the slot's value starts.
    let slotStart: Int

    var codingPath: [any CodingKey] { writer.codingPath(depth: depth) }

    /// Always empty: Tally passes nothing to `encode(to:)` on the side.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let frameID = frame(isObject: true)
        return KeyedEncodingContainer(
            JSONKeyedEncodingContainer<Key>(writer: writer, frameIndex: depth, frameID: frameID))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONUnkeyedEncodingContainer(writer: writer, frameIndex: depth, frameID: frame(isObject: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The frame of this slot's container: the one it already opened, or a new one.
    private func frame(isObject: Bool) -> Int {
        if depth < writer.frames.count, writer.frames[depth].openedAt == slotStart,
            writer.frames[depth].isObject == isObject
        {
            return writer.frames[depth].id
        }
        writer.closeFrames(deeperThan: depth)
        if writer.bytes.count != slotStart {
            writer.record(alreadyEncoded("a container"))
        }
        return writer.openFrame(isObject: isObject)
    }

    func alreadyEncoded(_ what: String) -> EncodingError {
        EncodingError.invalidValue(
            what,
            EncodingError.Context(codingPath: codingPath, debugDescription: "A value was already encoded at this path"))
    }
}
