extension JSONTapeView {
    /// The text of a string node, escapes resolved. The parser already validated UTF-8 and escapes.
    @usableFromInline
    func string(at node: Int) -> String {
        let entry = nodes[node]
        let start = Int(entry.start)
        let raw = UnsafeBufferPointer(start: bytes.baseAddress! + start, count: Int(entry.length))
        return entry.isComplex ? Self.unescaped(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// Whether the key node `node` spells `name` (UTF-8): compares bytes inline, without building a `String`,
    /// except for the rare key with escapes.
    @inline(__always)
    func key(at node: Int, equals name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let wanted = name.baseAddress else { return string(at: node).isEmpty }
        return key(at: node, equals: wanted, count: name.count)
    }

    /// Whether the key node `node` spells the `count` UTF-8 bytes at `name`.
    @inlinable @inline(__always)
    func key(at node: Int, equals name: UnsafePointer<UInt8>, count: Int) -> Bool {
        let entry = nodes[node]
        guard !entry.isComplex else {
            return escapedKey(at: node, equals: UnsafeBufferPointer(start: name, count: count))
        }
        guard Int(entry.length) == count else { return false }
        return ShortBytes.equal(bytes.baseAddress! + Int(entry.start), name, count: count)
    }

    /// The slow path of `key(at:equals:count:)`: a key with escapes, compared by its text.
    @usableFromInline
    func escapedKey(at node: Int, equals name: UnsafeBufferPointer<UInt8>) -> Bool {
        var text = string(at: node)
        return text.withUTF8 { $0.elementsEqual(name) }
    }

    /// The raw bytes of a string node without escapes (they are its text), or `nil` if it has escapes.
    @inlinable
    func unescapedBytes(at node: Int) -> UnsafeBufferPointer<UInt8>? {
        let entry = nodes[node]
        guard !entry.isComplex else { return nil }
        return UnsafeBufferPointer(start: bytes.baseAddress! + Int(entry.start), count: Int(entry.length))
    }

    /// Resolves escapes of validated raw string bytes.
    private static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(hexUnit(raw, at: index))
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = UInt32(hexUnit(raw, at: index + 2))
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                output.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
            default: output.append(escape)  // \" \\ \/
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexUnit(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16 {
        var unit: UInt16 = 0
        for offset in 0..<4 {
            unit = unit << 4 | UInt16(JSONParser.hexValue(raw[index + offset]) ?? 0)
        }
        return unit
    }
}
