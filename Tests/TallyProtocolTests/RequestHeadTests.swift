import Foundation
import TallyJSONCoding
import TallyProtocol
import Testing

/// A request's envelope, every member but `params`: read whole and exact, refused member by member in the order
/// Protocol/README.md gives (version, id, method, deadline, trace) with the id echoed when it could be read.
@Suite struct RequestHeadTests {
    static func head(_ text: String) throws -> RequestHead {
        try TallyJSON.decoder().decode(RequestHead.self, from: Array(text.utf8))
    }

    @Test func aWholeEnvelopeIsReadToTheLastDigitOfItsDeadline() throws {
        let head = try Self.head(
            #"{"version":1,"id":"r-1","method":"history.month","params":{"x":1},"#
                + #""deadline":"2026-11-23T10:15:02.123456789+01:00","#
                + #""trace":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","tracestate":"a=1"}}"#
        )
        #expect(head.version == 1 && head.id == "r-1" && head.method == "history.month")
        let deadline = try #require(head.deadline?.instant)
        #expect(deadline.secondsSince1970 == 1_795_425_302 && deadline.nanoseconds == 123_456_789)
        #expect(head.trace?.tracestate == "a=1")
    }

    @Test(
        arguments: [
            (#"{"version":2,"id":"r-2","method":"system.ping"}"#, "unsupported_version", "version", "r-2"),
            (#"{"id":"r-3","method":"system.ping"}"#, "invalid_request", "version", "r-3"),
            (#"{"version":"1","id":"r-4","method":"system.ping"}"#, "invalid_request", "version", "r-4"),
            (#"{"version":1,"method":"system.ping"}"#, "invalid_request", "id", nil),
            (#"{"version":1,"id":"","method":"system.ping"}"#, "invalid_request", "id", nil),
            (#"{"version":1,"id":"r-5"}"#, "invalid_request", "method", "r-5"),
            (
                #"{"version":1,"id":"r-6","method":"system.ping","deadline":"tomorrow"}"#, "invalid_request",
                "deadline", "r-6"
            ),
            (
                #"{"version":1,"id":"r-7","method":"system.ping","trace":{"traceparent":"00-zz"}}"#, "invalid_request",
                "trace.traceparent", "r-7"
            ),
            // The version is read first: a later version's request is told so, whatever else it has wrong.
            (#"{"version":3,"method":7}"#, "unsupported_version", "version", nil),
        ] as [(String, String, String, String?)])
    func theFirstWrongMemberIsTheOneNamed(text: String, code: String, field: String, id: String?) {
        do {
            _ = try Self.head(text)
            Issue.record("\(text) was read")
        } catch let failure as RequestFailure {
            #expect(failure.error.code.rawValue == code, "\(text): \(failure.error)")
            #expect(failure.error.details?.field == field, "\(text): \(failure.error)")
            #expect(failure.id == id, "\(text)")
        } catch {
            Issue.record("\(text): \(error)")
        }
    }

    @Test func anEnvelopeThatIsNotAnObjectIsSaidToBeNone() {
        for text in ["[1,2]", "7", #""request""#] {
            #expect { try Self.head(text) } throws: { error in
                (error as? RequestFailure)?.error.message == "the request must be a JSON object"
            }
        }
    }
}

/// A request's envelope read by its fast path (`ParsedJSON.decode`, as the dispatcher reads it) and by its
/// `init(from:)` (Foundation's decoder takes no other): the same head for plain envelopes, and the same refusal,
/// with the same id, where the fast path steps aside.
@Suite struct RequestHeadParityTests {
    @Test(
        arguments: [
            #"{"version":1,"id":"r-1","method":"system.ping","params":{}}"#,
            #"{"method":"history.month","params":{"a":[1,2,{"b":null}]},"id":"r-2","version":1}"#,
            #"{"version":1,"id":"r-3","method":"system.ping","deadline":"2026-11-27T10:00:02.5+01:00"}"#,
            #"{"version":1,"id":"r-4","method":"system.ping","deadline":null}"#,
            #"{"version":1,"id":"r-5","method":"system.ping","unknown":true}"#,
            #"{"version":1,"id":"r-6","method":"system.ping","trace":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}"#,
            #"{"version":1,"id":"\u0072-7","method":"system.ping"}"#,
            #"{"version":1,"id":"Überkopf 🏋️","method":"system.ping"}"#,
            // Refused: by version, id, method, deadline and trace, in the order the standard path checks them.
            #"{"version":2,"id":"r-8","method":"system.ping"}"#,
            #"{"version":"1","id":"r-9","method":"system.ping"}"#,
            #"{"id":"r-10","method":"system.ping"}"#,
            #"{"version":1,"id":"","method":"system.ping"}"#,
            #"{"version":1,"id":7,"method":"system.ping"}"#,
            #"{"version":1,"method":"system.ping"}"#,
            #"{"version":1,"id":"r-11"}"#,
            #"{"version":1,"id":"r-12","method":"system.ping","deadline":"tomorrow"}"#,
            #"{"version":1,"id":"r-13","method":"system.ping","trace":{"traceparent":"00-zz"}}"#,
            #"[1,2]"#,
        ] + [#"{"version":1,"id":"\#(String(repeating: "x", count: 129))","method":"system.ping"}"#])
    func requestHeadsReadAlike(_ text: String) throws {
        let fast = Result { try ParsedJSON(parsing: Array(text.utf8)).decode(RequestHead.self) }
        let standard = Result { try JSONDecoder().decode(RequestHead.self, from: Data(text.utf8)) }
        switch (fast, standard) {
        case (.success(let fast), .success(let standard)):
            #expect(fast == standard, "\(text)")
        case (.failure(let fast as RequestFailure), .failure(let standard as RequestFailure)):
            #expect(fast.id == standard.id && fast.error.code == standard.error.code, "\(text)")
            #expect(fast.error.details?.field == standard.error.details?.field, "\(text)")
        default:
            Issue.record("\(text): \(fast) against \(standard)")
        }
    }
}
