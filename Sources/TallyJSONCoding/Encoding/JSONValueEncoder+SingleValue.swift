/// The encoder is its own single-value container, as in Foundation: the value goes into the encoder's slot.
extension JSONValueEncoder: SingleValueEncodingContainer {
    /// Makes sure nothing was written in this slot yet.
    private func beginSingleValue() throws {
        writer.closeFrames(deeperThan: depth)
        guard writer.bytes.count == slotStart else { throw alreadyEncoded("a single value") }
    }

    func encodeNil() throws {
        try beginSingleValue()
        writer.writeNull()
    }

    func encode(_ value: Bool) throws {
        try beginSingleValue()
        writer.writeBool(value)
    }

    func encode(_ value: String) throws {
        try beginSingleValue()
        writer.writeString(value)
    }

    func encode(_ value: Double) throws {
        guard value.isFinite else { throw nonFinite(value) }
        try beginSingleValue()
        writer.writeDouble(value)
    }

    func encode(_ value: Float) throws {
        guard value.isFinite else { throw nonFinite(value) }
        try beginSingleValue()
        writer.writeFloat(value)
    }

    func encode(_ value: Int) throws { try encodeInteger(value) }
    func encode(_ value: Int8) throws { try encodeInteger(value) }
    func encode(_ value: Int16) throws { try encodeInteger(value) }
    func encode(_ value: Int32) throws { try encodeInteger(value) }
    func encode(_ value: Int64) throws { try encodeInteger(value) }
    func encode(_ value: UInt) throws { try encodeInteger(value) }
    func encode(_ value: UInt8) throws { try encodeInteger(value) }
    func encode(_ value: UInt16) throws { try encodeInteger(value) }
    func encode(_ value: UInt32) throws { try encodeInteger(value) }
    func encode(_ value: UInt64) throws { try encodeInteger(value) }

    func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }

    private func encodeInteger<T: FixedWidthInteger>(_ value: T) throws {
        try beginSingleValue()
        writer.writeInteger(value)
    }

    /// JSON has no NaN or infinity; Foundation refuses them with this wording.
    private func nonFinite<T: BinaryFloatingPoint>(_ value: T) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: codingPath, debugDescription: "Unable to encode \(T.self).\(value) directly in JSON."))
    }
}
