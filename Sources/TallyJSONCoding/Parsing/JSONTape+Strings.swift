#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONTape {
    /// The text of a string node, escapes resolved. The parser already validated UTF-8 and escapes.
    func string(at node: Int) -> String {
        let entry = nodes[node]
        let start = Int(entry.start)
        let raw = UnsafeBufferPointer(start: bytes.baseAddress! + start, count: Int(entry.length))
        return entry.isComplex ? Self.unescaped(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// Whether the key node `node` spells `name`; compares bytes without building a `String` in the usual case.
    func key(at node: Int, equals name: String) -> Bool {
        let entry = nodes[node]
        guard !entry.isComplex else { return string(at: node) == name }
        let length = Int(entry.length)
        var name = name
        return name.withUTF8 { wanted in
            wanted.count == length && memcmp(bytes.baseAddress! + Int(entry.start), wanted.baseAddress!, length) == 0
        }
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
