import Testing

@testable import TallyGateway

/// The structure-only reading of a reply or an envelope: members found with escapes and nesting, anything that is
/// not one object refused rather than guessed at.
@Suite struct TopLevelMembersTests {
    static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    @Test func membersAreFoundPastNestingAndEscapes() throws {
        let bytes = Array(#" { "a\"b" : [1, {"id": "no"}, "]"], "id":"x\\y" ,"n":-1.5e3,"t":true,"z":null} "#.utf8)
        let members = try #require(TopLevelMembers(bytes))
        #expect(members.members.map { Self.text(bytes, $0.key) } == [#"a\"b"#, "id", "n", "t", "z"])
        let id = try #require(members.first("id", in: bytes))
        #expect(Self.text(bytes, id.value) == #""x\\y""#)
        #expect(TopLevelMembers.stringContents(id.value, in: bytes).map { Self.text(bytes, $0) } == #"x\\y"#)
        #expect(Self.text(bytes, try #require(members.first("n", in: bytes)).value) == "-1.5e3")
        #expect(members.first("a", in: bytes) == nil)
        #expect(bytes[members.openingBrace] == UInt8(ascii: "{"))
    }

    @Test func theFirstOfTwoMembersOfOneNameIsTaken() throws {
        let bytes = Array(#"{"id":"first","id":"second"}"#.utf8)
        let members = try #require(TopLevelMembers(bytes))
        #expect(Self.text(bytes, try #require(members.first("id", in: bytes)).value) == #""first""#)
    }

    @Test(arguments: [
        "", "[]", "\"id\"", "{", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "{\"a\":\"unterminated}", "{\"a\":[1,2}",
        "{\"a\":{\"b\":1]}", "{a:1}",
    ])
    func whatIsNotOneObjectIsRefused(text: String) {
        #expect(TopLevelMembers(Array(text.utf8)) == nil)
    }

    @Test func nestingDeeperThanTheParserTakesIsRefused() {
        let deep = "{\"a\":" + String(repeating: "[", count: 700) + String(repeating: "]", count: 700) + "}"
        #expect(TopLevelMembers(Array(deep.utf8)) == nil)
        let fine = "{\"a\":" + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}"
        #expect(TopLevelMembers(Array(fine.utf8)) != nil)
    }
}
