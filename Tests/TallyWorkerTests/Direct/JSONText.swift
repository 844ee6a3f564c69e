/// A JSON document as a tree whose scalars keep their exact text, so that a test can write the same document
/// again with its members in another order, with whitespace, or with one thing changed, and nothing else moved
/// (a number written back from a `Double` would not be the same text).
///
/// For documents Tally's own encoder wrote: compact and valid. It is a test's tool, not a parser of untrusted text.
indirect enum JSONText: Sendable {
    /// A string, a number, `true`, `false` or `null`, exactly as written (a string with its quotes).
    case scalar(String)
    case array([JSONText])
    case object([Member])

    struct Member: Sendable {
        var key: String
        var value: JSONText

        init(_ key: String, _ value: JSONText) {
            self.key = key
            self.value = value
        }
    }

    /// - Parameter bytes: a valid document; whitespace between its tokens is dropped.
    init(_ bytes: [UInt8]) {
        var compact: [UInt8] = []
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if [0x20, 0x0A, 0x0D, 0x09].contains(byte) {
                continue
            }
            compact.append(byte)
        }
        var position = 0
        self = Self.parse(compact, &position)
    }

    private static func parse(_ bytes: [UInt8], _ position: inout Int) -> JSONText {
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [Member] = []
            while bytes[position] != UInt8(ascii: "}") {
                if bytes[position] == UInt8(ascii: ",") { position += 1 }
                guard case .scalar(let quoted) = parse(bytes, &position) else { preconditionFailure("a key") }
                position += 1  // :
                members.append(Member(String(quoted.dropFirst().dropLast()), parse(bytes, &position)))
            }
            position += 1
            return .object(members)
        case UInt8(ascii: "["):
            position += 1
            var elements: [JSONText] = []
            while bytes[position] != UInt8(ascii: "]") {
                if bytes[position] == UInt8(ascii: ",") { position += 1 }
                elements.append(parse(bytes, &position))
            }
            position += 1
            return .array(elements)
        case UInt8(ascii: "\""):
            let start = position
            position += 1
            while bytes[position] != UInt8(ascii: "\"") {
                position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
            }
            position += 1
            return .scalar(String(decoding: bytes[start..<position], as: UTF8.self))
        default:
            let start = position
            while position < bytes.count,
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[position])
            {
                position += 1
            }
            return .scalar(String(decoding: bytes[start..<position], as: UTF8.self))
        }
    }

    /// The document's text; `space` is written around every structural character (none: compact).
    func text(space: String = "") -> String {
        switch self {
        case .scalar(let text): text
        case .array(let elements):
            "[\(space)" + elements.map { $0.text(space: space) }.joined(separator: "\(space),\(space)") + "\(space)]"
        case .object(let members):
            "{\(space)"
                + members.map { "\"\($0.key)\"\(space):\(space)\($0.value.text(space: space))" }.joined(
                    separator: "\(space),\(space)") + "\(space)}"
        }
    }

    var bytes: [UInt8] { Array(text().utf8) }

    /// Every object's members put in the order `order` gives (applied to each object's member count).
    func reordered(_ order: (Int) -> [Int]) -> JSONText {
        switch self {
        case .scalar: self
        case .array(let elements): .array(elements.map { $0.reordered(order) })
        case .object(let members):
            .object(order(members.count).map { Member(members[$0].key, members[$0].value.reordered(order)) })
        }
    }

    /// The value at `path` (member names and element indexes) changed by `change`; the document unchanged when
    /// there is nothing at that path.
    func changing(_ path: ArraySlice<PathStep>, _ change: (JSONText) -> JSONText?) -> JSONText? {
        guard let step = path.first else { return change(self) }
        switch (self, step) {
        case (.array(var elements), .index(let index)) where elements.indices.contains(index):
            guard let changed = elements[index].changing(path.dropFirst(), change) else {
                elements.remove(at: index)
                return .array(elements)
            }
            elements[index] = changed
            return .array(elements)
        case (.object(var members), .key(let key)):
            guard let position = members.firstIndex(where: { $0.key == key }) else { return self }
            guard let changed = members[position].value.changing(path.dropFirst(), change) else {
                members.remove(at: position)
                return .object(members)
            }
            members[position].value = changed
            return .object(members)
        default:
            return self
        }
    }

    enum PathStep: Sendable {
        case key(String)
        case index(Int)
    }

    /// The paths of every value in the document, in document order.
    var paths: [[PathStep]] {
        switch self {
        case .scalar: [[]]
        case .array(let elements):
            [[]] + elements.enumerated().flatMap { index, element in element.paths.map { [.index(index)] + $0 } }
        case .object(let members):
            [[]] + members.flatMap { member in member.value.paths.map { [.key(member.key)] + $0 } }
        }
    }
}
