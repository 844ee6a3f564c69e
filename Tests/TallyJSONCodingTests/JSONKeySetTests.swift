@testable import TallyJSONCoding
import TallyJSONCoding
import Testing

/// `JSONKeySet` finds a key by its name's length and end words: at every length around the word sizes, a key
/// matches only its own name, whether written plainly or with escapes, and a key no name spells matches none.
@Suite struct JSONKeySetTests {
    /// Names of every length from 0 to 24, each a run of one letter ("", "b", "cc", …), plus two that differ from
    /// others of their length only in the middle (where the end words do not reach).
    enum Name: CodingKey, CaseIterable, Sendable {
        case length(Int)
        case middle(String)

        static let allCases: [Name] = (0...24).map { .length($0) } + [.middle(middleA), .middle(middleB)]
        static let middleA = "aaaaaaaaXaaaaaaaaaa"
        static let middleB = "aaaaaaaaYaaaaaaaaaa"

        var stringValue: String {
            switch self {
            case .length(let count): String(repeating: Character(UnicodeScalar(UInt8(97 + count % 26))), count: count)
            case .middle(let text): text
            }
        }

        init?(stringValue: String) { nil }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    static let keys = JSONKeySet<Name>()

    func found(_ key: String) -> String? {
        var text = key
        return text.withUTF8 { bytes in
            Self.keys.key(spelledBy: bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: bytes.count)?
                .stringValue
        }
    }

    @Test func everyNameFindsItsOwnKey() {
        for name in Name.allCases {
            #expect(found(name.stringValue) == name.stringValue, "\(name.stringValue)")
        }
    }

    @Test func aKeyThatDiffersAnywhereFindsNothing() {
        for name in Name.allCases where !name.stringValue.isEmpty {
            var bytes = Array(name.stringValue.utf8)
            for position in bytes.indices {
                let original = bytes[position]
                bytes[position] = UInt8(ascii: "Z")
                #expect(found(String(decoding: bytes, as: UTF8.self)) == nil, "\(name.stringValue) at \(position)")
                bytes[position] = original
            }
            #expect(found(name.stringValue + "a") != name.stringValue)
        }
    }

    @Test func escapedKeysAreMatchedByTheirText() throws {
        let document = #"[{"\u0063\u0063":1,"b":2,"\u0078":3}]"#
        let tape = try JSONParser.parse(Array(document.utf8))
        let members = Array(JSONObjectReader(tape: tape.view, node: 1).members)
        #expect(members.map { $0.key(in: Self.keys)?.stringValue } == ["cc", "b", nil])
    }
}
