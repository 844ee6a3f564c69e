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
        // Members before the outcome are skipped, whatever they hold; the code may come anywhere in the error.
        let late = #"{"trace":{"error":{"code":"x"}},"id":"a","error":{"details":{"code":"y"},"code":"overloaded"}}"#
        #expect(EnvelopeScanner.errorCode(in: Self.bytes(late)) == "overloaded")
    }

    @Test func aResultEndsTheErrorCodeScanBeforeItIsWalked() {
        // A result that is not even JSON: the scan stops at its key, as the broker's does.
        let body = Self.bytes(#"{"version":1,"id":"r","result":"#) + Array(repeating: UInt8(ascii: "["), count: 1 << 16)
        #expect(EnvelopeScanner.errorCode(in: body) == nil)
        // One outcome per response: an error after a result is not read, by the client as by the broker.
        let both = #"{"version":1,"id":"r","result":{},"error":{"code":"internal"}}"#
        #expect(EnvelopeScanner.errorCode(in: Self.bytes(both)) == nil)
        #expect(EnvelopeScanner.replyHead(in: Self.bytes(both)).errorCode == nil)
    }

    @Test(
        arguments: [
            (#"{"version":1,"id":"r-1","result":{"big":[1,2,3]}}"#, "r-1", nil),
            (#"{"version":1,"id":"r-2","error":{"code":"invalid_params","message":"m"}}"#, "r-2", "invalid_params"),
            (#"{"version":1,"id":null,"error":{"message":"m","code":"malformed_json"}}"#, nil, "malformed_json"),
            (#"{"error":{"code":"internal"},"id":"late-id"}"#, "late-id", "internal"),
            (#"{"version":1,"id":"r-3","error":{"code":"esc\"aped"}}"#, "r-3", nil),
            (#"{"version":1,"id":"r-4","error":"not an object"}"#, "r-4", nil),
            (#"{"version":1,"id":"r-5","error":{"code":""# + String(repeating: "x", count: 33) + #""}}"#, "r-5", nil),
            (#"{"version":1,"id":"r-6","result":"#, "r-6", nil),
            ("not json", nil, nil),
        ] as [(String, String?, String?)])
    func readsAReplysIDAndErrorCodeInOnePass(body: String, id: String?, code: String?) {
        let head = EnvelopeScanner.replyHead(in: Self.bytes(body))
        #expect(head.id.map { String(decoding: $0, as: UTF8.self) } == id)
        #expect(head.errorCode.map { String(decoding: $0, as: UTF8.self) } == code)
        if let id { #expect(EnvelopeScanner.rawID(in: Self.bytes(body)).map(Array.init) == Array(id.utf8)) }
    }

    @Test func aResultAfterTheIDIsNeverWalked() {
        // A result that is not even JSON: the scan stops at its key.
        let body = Self.bytes(#"{"version":1,"id":"r","result":"#) + Array(repeating: UInt8(ascii: "["), count: 1 << 16)
        let head = EnvelopeScanner.replyHead(in: body)
        #expect(head.id.map(Array.init) == Array("r".utf8))
        #expect(head.errorCode == nil)
    }
}
