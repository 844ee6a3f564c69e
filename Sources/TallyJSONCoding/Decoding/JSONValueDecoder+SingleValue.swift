/// The decoder is its own single-value container, as in Foundation: a single value is the decoder's node.
extension JSONValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { kind == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch kind {
        case .true: return true
        case .false: return false
        default: throw wrongType(.boolean)
        }
    }

    func decode(_ type: String.Type) throws -> String {
        try require(.string, expected: .string)
        return document.view.string(at: node)
    }

    func decode(_ type: Double.Type) throws -> Double {
        try require(.number, expected: .number)
        guard let value = document.view.double(at: node) else { throw outOfRange(.number) }
        return value
    }

    func decode(_ type: Float.Type) throws -> Float {
        let wide = try decode(Double.self)
        let value = Float(wide)
        guard value.isFinite, value != 0 || wide == 0 else { throw outOfRange(.number) }
        return value
    }

    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try require(.number, expected: .integer)
        guard let value = document.view.integer(at: node, as: type) else { throw outOfRange(.integer) }
        return value
    }

    /// A number the requested type cannot hold, quoted as written.
    private func outOfRange(_ expected: JSONValueKind) -> JSONDecodingError {
        let entry = document.nodes[node]
        let start = Int(entry.start)
        let bytes = UnsafeBufferPointer(start: document.view.bytes.baseAddress! + start, count: Int(entry.length))
        return JSONDecodingError(at: fieldPath, .outOfRange(String(decoding: bytes, as: UTF8.self), expected: expected))
    }
}
