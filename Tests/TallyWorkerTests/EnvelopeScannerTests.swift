import TallyProtocol
import Testing

/// The id and error-code scan that the broker and the client run on bodies they do not parse: right on every
/// well-formed envelope, `nil` (never a trap) on anything else, whatever the collection holding the bytes.
@Suite struct EnvelopeScannerTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: [
        (#"{"version":1,"id":"r-1","method":"system.ping"}"#, "r-1"),
        (#" { "params" : {"id":"inner","list":[1,{"id":"x"}]} , "id" : "outer" } "#, "outer"),
        (#"{"version":1,"params":[true,false,null,-1.5e3,"a\"b"],"id":"after-values"}"#, "after-values"),
        (#"{"id":"día-7"}"#, "día-7"),
    ])
    func findsTheTopLevelID(body: String, id: String) {
        #expect(EnvelopeScanner.id(in: Self.bytes(body)) == id)
        // Not contiguous: scanned over a copy, same answer.
        #expect(EnvelopeScanner.id(in: Self.bytes(body).lazy.map { $0 }) == id)
        // A slice of a larger buffer: scanned in place, bounded by the slice.
        let framed = Self.bytes("xx" + body + "yy")
        #expect(EnvelopeScanner.id(in: framed[2..<(framed.count - 2)]) == id)
        // The broker's raw form: the same bytes, as a slice of the body.
        #expect(EnvelopeScanner.rawID(in: Self.bytes(body)).map { Array($0) } == Array(id.utf8))
    }

    @Test(arguments: [
        "", "{", "[]", #"{"id":1}"#, #"{"id":"esc\"aped"}"#, #"{"id":"unterminated"#, #"{"other":"x"}"#,
        #"{"id""#, "\u{FEFF}{\"id\":\"bom\"}", String(repeating: "[", count: 10_000),
        #"{"id":""# + String(repeating: "x", count: 129) + #""}"#,
    ])
    func answersNilForAnythingElse(body: String) {
        #expect(EnvelopeScanner.id(in: Self.bytes(body)) == nil)
        #expect(EnvelopeScanner.rawID(in: Self.bytes(body)) == nil)
    }

    @Test func invalidUTF8InTheIDIsNotAnID() {
        #expect(EnvelopeScanner.id(in: Self.bytes(#"{"id":""#) + [0xFF, 0xFE] + Self.bytes(#""}"#)) == nil)
    }

    @Test func onlyTheFirstMebibyteIsScanned() {
        let padding = String(repeating: " ", count: 1 << 20)
        #expect(EnvelopeScanner.id(in: Self.bytes("{" + padding + #""id":"late"}"#)) == nil)
        #expect(EnvelopeScanner.id(in: Self.bytes(#"{"id":"early","pad":""# + padding + #""}"#)) == "early")
    }

    @Test func readsTheErrorCodeOfAnErrorResponseOnly() {
        let failure = #"{"version":1,"id":"a","error":{"message":"no","code":"invalid_params","details":{}}}"#
        #expect(EnvelopeScanner.errorCode(in: Self.bytes(failure)) == "invalid_params")
        #expect(EnvelopeScanner.errorCode(in: Self.bytes(#"{"version":1,"id":"a","result":{"code":"x"}}"#)) == nil)
        #expect(EnvelopeScanner.errorCode(in: Self.bytes(#"{"error":"overloaded"}"#)) == nil)
        #expect(EnvelopeScanner.errorCode(in: Self.bytes("not json")) == nil)
    }
}
