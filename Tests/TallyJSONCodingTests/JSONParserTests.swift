import Testing

@testable import TallyJSONCoding

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

    @Test(arguments: [
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

    @Test func buildsTheTapeWithSkipLinksAndParents() throws {
        let tape = try parse(#"{"a":[1,{"b":null}],"c":"x"}"#)
        // object, "a", array, 1, object, "b", null, "c", "x"
        let kinds: [JSONNode.Kind] = [.object, .string, .array, .number, .object, .string, .null, .string, .string]
        #expect(tape.nodes.map(\.kind) == kinds)
        #expect(tape.nodes[0].length == 2)
        #expect(tape.nodes[2].length == 2)
        #expect(tape.nodes[2].next == 7)
        #expect(tape.nodes[6].parent == 4)
        #expect(tape.nodes[8].parent == 0)
    }
}
