/// The members of a JSON object's top level as byte ranges of its text, found without decoding anything: what the
/// gateway needs to take a v1 reply apart (its `id`, its `result` or `error`) and to give an envelope another id,
/// leaving every other byte as it came.
///
/// Only the structure is followed (strings with their escapes, nesting); values are not checked. It is run on
/// bodies that are already known to be JSON: a request the gateway parsed, a reply a worker or broker wrote.
/// Anything else yields `nil` rather than a guess.
struct TopLevelMembers {
    /// One member: where its key's text is (between the quotes, escapes as written) and where its value is.
    struct Member {
        let key: Range<Int>
        let value: Range<Int>
    }

    /// Where the object's `{` is.
    let openingBrace: Int
    /// Every member, in the order the text writes them.
    let members: [Member]

    /// Deepest nesting followed; deeper text is refused (the strict parser refuses beyond 512 levels).
    static let maximumDepth = 600

    init?(_ bytes: [UInt8]) {
        var index = 0
        Self.skipSpace(bytes, &index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        openingBrace = index
        index += 1
        var members: [Member] = []
        Self.skipSpace(bytes, &index)
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            self.members = []
            return
        }
        while true {
            Self.skipSpace(bytes, &index)
            guard let key = Self.string(bytes, &index) else { return nil }
            Self.skipSpace(bytes, &index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            Self.skipSpace(bytes, &index)
            let start = index
            guard Self.skipValue(bytes, &index, depth: 0) else { return nil }
            members.append(Member(key: key, value: start..<index))
            Self.skipSpace(bytes, &index)
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { return nil }
            break
        }
        self.members = members
    }

    /// The first member named `name` (a key written without escapes), as JSON readers take duplicates.
    func first(_ name: StaticString, in bytes: [UInt8]) -> Member? {
        members.first { member in
            member.key.count == name.utf8CodeUnitCount
                && name.withUTF8Buffer { bytes[member.key].elementsEqual($0) }
        }
    }

    /// The text of a string value without its quotes, or `nil` when the value is not a string.
    static func stringContents(_ value: Range<Int>, in bytes: [UInt8]) -> Range<Int>? {
        guard value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""),
            bytes[value.upperBound - 1] == UInt8(ascii: "\"")
        else { return nil }
        return (value.lowerBound + 1)..<(value.upperBound - 1)
    }

    private static func skipSpace(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
            index += 1
        }
    }

    /// A string at `index`; returns the range of its contents and moves past its closing quote.
    private static func string(_ bytes: [UInt8], _ index: inout Int) -> Range<Int>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var cursor = start
        while cursor < bytes.count {
            switch bytes[cursor] {
            case UInt8(ascii: "\\"): cursor += 2
            case UInt8(ascii: "\""):
                index = cursor + 1
                return start..<cursor
            default: cursor += 1
            }
        }
        return nil
    }

    private static func skipValue(_ bytes: [UInt8], _ index: inout Int, depth: Int) -> Bool {
        guard depth < maximumDepth, index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return string(bytes, &index) != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = bytes[index] == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            index += 1
            skipSpace(bytes, &index)
            if index < bytes.count, bytes[index] == close {
                index += 1
                return true
            }
            while true {
                skipSpace(bytes, &index)
                if isObject {
                    guard string(bytes, &index) != nil else { return false }
                    skipSpace(bytes, &index)
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
                    index += 1
                    skipSpace(bytes, &index)
                }
                guard skipValue(bytes, &index, depth: depth + 1) else { return false }
                skipSpace(bytes, &index)
                guard index < bytes.count else { return false }
                if bytes[index] == close {
                    index += 1
                    return true
                }
                guard bytes[index] == UInt8(ascii: ",") else { return false }
                index += 1
            }
        default:
            // Numbers, true, false, null: up to the next delimiter.
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
                    || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
                {
                    break
                }
                index += 1
            }
            return index > start
        }
    }
}
