import Foundation
@testable import TallyJSONCoding
import TallyJSONCoding
import Testing

/// `JSONCursor.string()` reads plain strings and those whose escapes are of one character (Foundation's
/// `JSONEncoder` writes `/` as `\/`): whatever it reads is what the standard decoder reads, and a string with only
/// such escapes is read.
@Suite struct DirectStringTests {
    /// The direct read and the standard decoder's of the JSON string `text` (with its quotes).
    static func readings(_ text: String) -> (direct: String?, standard: String?) {
        let bytes = Array(text.utf8)
        return (JSONCursor.read(bytes) { $0.string() }, try? TallyJSONDecoder().decode(String.self, from: bytes))
    }

    @Test(arguments: [
        #""Europe\/Berlin""#, #""a\"b""#, #""back\\slash""#, #""\b\f\n\r\t""#, #""\/\/\/""#, #""Übung\/✓\n🏋""#,
        #""\\\"""#, #""tail\\""#,
    ])
    func oneCharacterEscapesAreReadAsTheStandardDecoderReadsThem(_ text: String) {
        let (direct, standard) = Self.readings(text)
        #expect(direct != nil, "\(text) is read directly")
        #expect(direct == standard, "\(text)")
    }

    @Test(arguments: [
        #""\u0041""#, #""\x""#, #""\""#, #""a\"#, "\"\u{1}\"", #""\/"#, "\"\\\u{1}\"", #""\ud83c\udfcb""#,
    ])
    func anythingElseIsLeftToTheStandardDecoder(_ text: String) {
        #expect(Self.readings(text).direct == nil, "\(text)")
    }

    /// Strings made of plain text, non-ASCII text, every escape and broken pieces: the direct read is the standard
    /// decoder's whenever it reads anything, and reads every string whose escapes are of one character.
    @Test func randomStringsAreReadAsTheStandardDecoderReadsThem() {
        let pieces = [
            "a", "Bench press", "é", "🏋", #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\u0041"#,
            #"\x"#, "\u{7}", "/", " ",
        ]
        var generator = SystemRandomNumberGenerator()
        var problems: [String] = []
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...8, using: &generator)
            let body = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let text = "\"" + body + "\""
            let (direct, standard) = Self.readings(text)
            let simple = !body.contains(#"\u"#) && !body.contains(#"\x"#) && !body.contains("\u{7}")
            if let direct, direct != standard {
                problems.append("\(text): \(direct), not \(String(describing: standard))")
            }
            if direct == nil, simple { problems.append("\(text): not read directly") }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
