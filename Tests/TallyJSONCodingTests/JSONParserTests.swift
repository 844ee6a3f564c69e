@testable import TallyJSONCoding
import TallyJSONCoding
import Testing

/// RFC 8259 syntax: what the parser accepts, what it refuses, and that it says where.
@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONTape { try JSONParser.parse(Array(text.utf8)) }

    func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONTape { try JSONParser.parse(bytes) }

    @Test(arguments: [
        "0", "-0", "1", "-1", "0.5", "-0.5e-3", "1E+2", "1e2", "123456789012345678901234567890", "true", "false",
        "null", #""""#, #""a""#, "[]", "{}", " [ 1 , 2 ] ", "\t\n\r{\"a\" : [ { } , [ ] , null ]}\n",
        #"{"a":1,"a":2}"#, #""\"\\\/\b\f\n\r\t""#, #""\u0041\u00e9\u20AC\ud83d\ude00""#, "\"é😀\u{7F}\"",
    ])
    func acceptsValidDocuments(_ text: String) throws {
        let tape = try parse(text)
        #expect(tape.nodes.first?.next == UInt32(tape.nodes.count))
    }

    @Test(arguments: [
        ("", "unexpected end of data"),
        ("   ", "unexpected end of data"),
        ("01", "leading zeros"),
        ("-01", "leading zeros"),
        ("00", "leading zeros"),
        ("1.", "digits after '.'"),
        (".5", "unexpected character"),
        ("1e", "exponent"),
        ("1e+", "exponent"),
        ("-", "digits after '-'"),
        ("+1", "unexpected character"),
        ("NaN", "unexpected character"),
        ("-Infinity", "digits after '-'"),
        ("Infinity", "unexpected character"),
        ("0x10", "after the top-level value"),
        ("[1,]", "unexpected character"),
        (#"{"a":1,}"#, "trailing commas"),
        (#"{"a" 1}"#, "expected ':'"),
        (#"{1:2}"#, "key must be a string"),
        ("[1 2]", "expected ',' or ']'"),
        ("[1", "inside an array"),
        (#"{"a":1"#, "inside an object"),
        ("{} {}", "after the top-level value"),
        ("true false", "after the top-level value"),
        ("tru", "expected 'true'"),
        ("nul", "expected 'null'"),
        ("nulls", "after the top-level value"),
        (#""abc"#, "inside a string"),
        ("\"a\u{1}b\"", "control character"),
        ("\"a\tb\"", "control character"),
        (#""\x""#, "invalid escape"),
        (#""\u12""#, "\\u escape"),
        (#""\u12G4""#, "four hexadecimal digits"),
        (#""\ud800""#, "low surrogate"),
        (#""\ud800\u0041""#, "low surrogate"),
        (#""\udc00""#, "without a high surrogate"),
        ("'a'", "unexpected character"),
    ])
    func refusesInvalidDocuments(_ text: String, _ reason: String) {
        #expect {
            try parse(text)
        } throws: { error in
            (error as? JSONSyntaxError)?.reason.contains(reason) == true
        }
    }

    @Test(
        arguments: [
            [0x22, 0xC0, 0x80, 0x22],  // overlong NUL
            [0x22, 0xC1, 0xBF, 0x22],  // overlong
            [0x22, 0xE0, 0x80, 0x80, 0x22],  // overlong 3-byte
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate U+D800
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],  // invalid lead
            [0x22, 0x80, 0x22],  // lone continuation
            [0x22, 0xC3, 0x22],  // truncated sequence
            [0x22, 0xE2, 0x82, 0x22],  // truncated 3-byte
            [0xEF, 0xBB, 0xBF, 0x31],  // byte order mark before a value
            [0x5B, 0xC3, 0xA9, 0x5D],  // non-ASCII outside a string
        ] as [[UInt8]])
    func refusesInvalidUTF8(_ bytes: [UInt8]) {
        #expect(throws: JSONSyntaxError.self) { try parse(bytes: bytes) }
    }

    @Test func acceptsEveryValidUTF8Length() throws {
        // é (2 bytes), € (3), U+FFFF and U+E000 (3, around the surrogate gap), 😀 and U+10FFFF (4).
        let text = "\"é€\u{E000}\u{FFFF}😀\u{10FFFF}\u{D7FF}\""
        let tape = try parse(text)
        #expect(tape.string(at: 0) == "é€\u{E000}\u{FFFF}😀\u{10FFFF}\u{D7FF}")
    }

    @Test func unescapesStrings() throws {
        let tape = try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti\u0000j\u00E9\ud83d\ude00""#)
        #expect(tape.string(at: 0) == "a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti\u{0}j\u{E9}😀")
    }

    @Test func limitsNesting() throws {
        let deepest = JSONParser.maximumDepth
        _ = try parse(String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest))
        let objects = deepest - 1
        _ = try parse(String(repeating: #"{"a":"#, count: objects) + "[]" + String(repeating: "}", count: objects))
        #expect {
            try parse(String(repeating: "[", count: deepest + 1) + String(repeating: "]", count: deepest + 1))
        } throws: { error in
            (error as? JSONSyntaxError)?.reason.contains("nested deeper than 512") == true
        }
        // Far deeper input fails at the limit, without recursing further.
        #expect(throws: JSONSyntaxError.self) { try parse(String(repeating: "[", count: 100_000)) }
    }

    @Test func reportsWhereTheProblemIs() {
        #expect {
            try parse(#"{"a": [1, 2, 03]}"#)
        } throws: { error in
            (error as? JSONSyntaxError)?.offset == 14
        }
    }

    @Test func buildsTheTapeWithSkipLinks() throws {
        let tape = try parse(#"{"a":[1,{"b":null}],"c":"x"}"#)
        // object, "a", array, 1, object, "b", null, "c", "x"
        let kinds: [JSONNode.Kind] = [.object, .string, .array, .number, .object, .string, .null, .string, .string]
        #expect(tape.nodes.map(\.kind) == kinds)
        #expect(tape.nodes[0].length == 2)
        #expect(tape.nodes[2].length == 2)
        #expect(tape.nodes[2].next == 7)
        #expect(tape.nodes[4].next == 7)
        #expect(tape.nodes[8].next == 9)
    }

    /// Coding paths are rebuilt from the root along the skip links: member names and array positions.
    @Test func rebuildsCodingPathsFromTheRoot() throws {
        let tape = try parse(#"{"a":[1,{"b":null,"c":[[],[7]]}],"d":"x"}"#)
        // 0 object, 1 "a", 2 array, 3 1, 4 object, 5 "b", 6 null, 7 "c", 8 array, 9 array, 10 array, 11 7,
        // 12 "d", 13 "x"
        let document = JSONDocument(tape: tape)
        func path(_ node: Int) -> [String] { document.codingPath(of: node).map(\.stringValue) }
        #expect(path(0) == [])
        #expect(path(2) == ["a"])
        #expect(path(3) == ["a", "Index 0"])
        #expect(path(6) == ["a", "Index 1", "b"])
        #expect(path(10) == ["a", "Index 1", "c", "Index 1"])
        #expect(path(11) == ["a", "Index 1", "c", "Index 1", "Index 0"])
        #expect(document.codingPath(of: 11).last?.intValue == 0)
        #expect(path(13) == ["d"])
    }
}

/// The word-at-a-time paths of the parser (plain string runs, key comparison, node storage) against the plain
/// definition, at every length and position around the 8-byte words they work in.
@Suite struct JSONParserWordTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONTape { try JSONParser.parse(Array(text.utf8)) }

    /// Strings of `length` plain bytes with one special byte (or sequence) at every position: the value, or the
    /// error and its offset, is what reading byte by byte gives.
    @Test(arguments: [
        ("\\\"", "\""), ("\\\\", "\\"), ("\\n", "\n"), ("\\u00e9", "é"), ("é", "é"), ("€", "€"), ("😀", "😀"),
        ("\u{7F}", "\u{7F}"), (" ", " "), ("~", "~"),
    ])
    func specialBytesAnywhereInAString(_ written: String, _ meant: String) throws {
        for length in 0..<20 {
            for position in 0...length {
                let plain = (0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) }
                var text = String(plain)
                var value = String(plain)
                text.insert(contentsOf: written, at: text.index(text.startIndex, offsetBy: position))
                value.insert(contentsOf: meant, at: value.index(value.startIndex, offsetBy: position))
                // As the document's last value, and followed by more (the tail loop and the word loop).
                let alone = try parse("\"\(text)\"")
                #expect(alone.string(at: 0) == value, "\(text)")
                let inArray = try parse("[\"\(text)\",\"\(text)\",1]")
                #expect(inArray.string(at: 2) == value, "\(text)")
            }
        }
    }

    @Test(arguments: [UInt8(0x00), 0x01, 0x09, 0x0A, 0x1F])
    func controlCharactersAnywhereAreRefusedWhereTheyAre(_ control: UInt8) {
        for length in 0..<20 {
            for position in 0...length {
                var bytes = Array(repeating: UInt8(ascii: "x"), count: length)
                bytes.insert(control, at: position)
                let document = [UInt8(ascii: "[")] + [0x22] + bytes + [0x22, UInt8(ascii: "]")]
                #expect {
                    try JSONParser.parse(document)
                } throws: { error in
                    let error = error as? JSONSyntaxError
                    return error?.offset == 2 + position && error?.reason.contains("control character") == true
                }
            }
        }
    }

    @Test func unterminatedStringsOfEveryLengthAreRefused() {
        for length in 0..<20 {
            let text = "[\"" + String(repeating: "x", count: length)
            #expect {
                try parse(text)
            } throws: { error in
                (error as? JSONSyntaxError)?.reason.contains("inside a string") == true
                    && (error as? JSONSyntaxError)?.offset == 1
            }
        }
    }

    @Test func invalidUTF8AfterPlainRunsIsRefused() {
        for length in 0..<20 {
            let plain = Array(repeating: UInt8(ascii: "x"), count: length)
            for bad: [UInt8] in [[0x80], [0xC3], [0xED, 0xA0, 0x80], [0xFF]] {
                #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22] + plain + bad + [0x22]) }
            }
        }
    }

    /// The text check for bodies that failed to parse, on the same word loop: a NUL byte or an invalid sequence at
    /// any position around the words is not text; valid non-ASCII text, quotes, escapes and controls other than
    /// NUL are.
    @Test func textCheckAgreesWithUTF8ValidationAtEveryPosition() {
        for length in 0..<20 {
            for position in 0...length {
                for inserted: [UInt8] in [
                    [0], [0xC3], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0xED, 0xA0, 0x80],
                    [0xFF], [0x22], [0x5C], [0x01], [0x7F],
                ] {
                    var bytes = Array(repeating: UInt8(ascii: "x"), count: length)
                    bytes.insert(contentsOf: inserted, at: position)
                    let expected = !bytes.contains(0) && String(validating: bytes, as: UTF8.self) != nil
                    #expect(PlainASCIIScan.isUTF8TextWithoutNUL(bytes) == expected, "\(bytes)")
                }
            }
        }
        #expect(PlainASCIIScan.isUTF8TextWithoutNUL([]))
    }

    @Test func shortByteComparisonAgreesWithElementwiseEquality() {
        for count in 0..<40 {
            let base = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            for position in 0..<max(count, 1) {
                var other = base
                if count > 0 { other[position] ^= 0x20 }
                base.withUnsafeBufferPointer { left in
                    other.withUnsafeBufferPointer { right in
                        guard let leftStart = left.baseAddress, let rightStart = right.baseAddress else { return }
                        #expect(ShortBytes.equal(leftStart, leftStart, count: count))
                        #expect(ShortBytes.equal(leftStart, rightStart, count: count) == (base == other))
                    }
                }
            }
        }
    }

    @Test func duplicateKeysOfEveryLengthAreNoticed() throws {
        for length in 1..<20 {
            let key = String(repeating: "k", count: length)
            let near = String(repeating: "k", count: length - 1) + "j"
            let distinct = try parse(#"{"\#(key)":1,"\#(near)":2}"#)
            #expect(distinct.nodes[0].isComplex == false)
            let duplicated = try parse(#"{"\#(key)":1,"\#(near)":2,"\#(key)":3}"#)
            #expect(duplicated.nodes[0].isComplex == true)
        }
    }

    /// An object is flagged when two keys are equal or a key has escapes, whatever the keys' marks.
    @Test func duplicateKeyFlagMatchesItsDefinition() throws {
        let names = [
            "", "a", "b", "ab", "ba", "aab", "abb", "reps", "unit", "weight", "id", "name", "plan", #"x\u0079"#,
        ]
        for _ in 0..<3_000 {
            let keys = (0..<Int.random(in: 2...16)).map { _ in names.randomElement()! }
            let text = "{" + keys.map { #""\#($0)":0"# }.joined(separator: ",") + "}"
            let expected = Set(keys).count < keys.count || keys.contains { $0.contains("\\") }
            let tape = try parse(text)
            #expect(tape.nodes[0].isComplex == expected, "\(text) \(tape.nodes[0]) \(expected)")
        }
    }

    @Test func documentsDenserThanExpectedGrowTheirNodeStorage() throws {
        // One node per two bytes, twice the room the parser first makes.
        let count = 10_000
        let tape = try parse("[" + Array(repeating: "1", count: count).joined(separator: ",") + "]")
        #expect(tape.nodes.count == count + 1)
        #expect(tape.nodes[0].length == UInt32(count))
        #expect(tape.nodes.dropFirst().allSatisfy { $0.kind == .number && $0.length == 1 })
        #expect(MemoryLayout<JSONNode>.stride == 16)
    }

    @Test(arguments: [
        ("-", 1, "digits after '-'"), ("[-]", 2, "digits after '-'"), ("-a", 1, "digits after '-'"),
        ("012", 1, "leading zeros"), ("[-00]", 3, "leading zeros"), ("1.", 2, "digits after '.'"),
        ("[1.e5]", 3, "digits after '.'"), ("1e", 2, "exponent"), ("[1E+]", 4, "exponent"),
        ("12.5e-x", 6, "exponent"),
    ])
    func numberErrorsSayWhere(_ text: String, _ offset: Int, _ reason: String) {
        #expect {
            try parse(text)
        } throws: { error in
            let error = error as? JSONSyntaxError
            return error?.offset == offset && error?.reason.contains(reason) == true
        }
    }

    @Test(arguments: ["0", "-0", "7", "-12.5", "0.001", "1e5", "1E-5", "-0.0e+0", "123456789.123456789e10"])
    func numbersKeepTheirWholeText(_ text: String) throws {
        let tape = try parse("[\(text),\(text)]")
        #expect(tape.nodes[1].length == UInt32(text.utf8.count))
        #expect(tape.nodes[2].start == UInt32(text.utf8.count + 2))
        #expect(tape.nodes[1].isComplex == (text.contains(".") || text.lowercased().contains("e")))
    }
}

extension JSONTape {
    /// The text of string node `node`, read while the tape is kept alive (a view does not keep it).
    func string(at node: Int) -> String { withExtendedLifetime(self) { view.string(at: node) } }
}
