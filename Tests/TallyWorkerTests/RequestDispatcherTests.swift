import Foundation
import Logging
import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol
import TallyWorker
import Testing

/// A test method with nested params, to exercise field paths and the shared param pieces.
enum EchoSteps: TallyMethod {
    static let name = "test.echo_steps"
    static let service = TallyService.history

    struct Params: Codable, Sendable {
        var time: RequestTime
        var goals: GoalParams
        var records: [DailyRecordParams]

        init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            goals = try GoalParams(from: decoder)
            records = try decoder.container(keyedBy: CodingKeys.self).decode([DailyRecordParams].self, forKey: .records)
        }

        func encode(to encoder: any Encoder) throws {}

        enum CodingKeys: String, CodingKey { case records }
    }

    struct Result: Codable, Sendable {
        var today: String
        var total: Int
    }
}

@Suite struct RequestDispatcherTests {
    let dispatcher: RequestDispatcher = {
        var registry = MethodRegistry()
        registry.registerSystemMethods(identity: WorkerIdentity(name: "test/1", version: "0.0.0-test"))
        registry.register(EchoSteps.self) { params, context throws(TallyError) in
            let history = try DailyRecordParams.history(params.records, at: .params + "records", limits: context.limits)
            _ = try params.goals.settings(limits: context.limits)
            return EchoSteps.Result(
                today: params.time.referenceDay.today.description, total: history.records.reduce(0) { $0 + $1.steps })
        }
        return registry.dispatcher(limits: RequestLimits(maxBodyBytes: 4096, maxListElements: 3))
    }()

    func respond(_ body: String, service: String = "tally.history") throws -> [String: Any] {
        let reply = dispatcher.respond(to: Array(body.utf8), service: service, logger: Logger(label: "test"))
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any])
    }

    func error(_ body: String, service: String = "tally.history") throws -> (code: String, field: String?, id: Any?) {
        let response = try respond(body, service: service)
        let error = try #require(response["error"] as? [String: Any], "expected an error in \(response)")
        let details = error["details"] as? [String: Any]
        return (error["code"] as! String, details?["field"] as? String, response["id"] ?? nil)
    }

    @Test func pingAnswersOnEveryService() throws {
        for service in ["tally.history", "tally.streak", "tally.workout"] {
            let response = try respond(#"{"version":1,"id":"p1","method":"system.ping"}"#, service: service)
            let result = try #require(response["result"] as? [String: Any])
            #expect(response["id"] as? String == "p1")
            #expect(result["service"] as? String == service)
            #expect(result["protocol_versions"] as? [Int] == [1])
            #expect(result["worker"] as? String == "test/1")
        }
    }

    @Test func computesAValidRequest() throws {
        let response = try respond(
            #"""
            {"version":1,"id":"r1","method":"test.echo_steps","unknown_field":true,
             "params":{"time_zone":"America/Los_Angeles","now":"2026-06-15T06:30:00Z","goal_log":[{"effective_date":"2026-01-01","goal":8000}],
                       "records":[{"date":"2026-06-14","steps":5},{"date":"2026-06-13","steps":7,"extra":1}]}}
            """#)
        let result = try #require(response["result"] as? [String: Any])
        #expect(result["today"] as? String == "2026-06-14")
        #expect(result["total"] as? Int == 12)
    }

    static let base =
        #""time_zone":"UTC","today":"2026-01-10","goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#

    @Test(
        arguments: [
            ("not json", "malformed_json", nil),
            (#"{"version":1,"id":"x","#, "malformed_json", nil),
            ("[1,2]", "invalid_request", nil),
            ("\"hello\"", "invalid_request", nil),
            (#"{"id":"x","method":"system.ping"}"#, "invalid_request", "version"),
            (#"{"version":"1","id":"x","method":"system.ping"}"#, "invalid_request", "version"),
            (#"{"version":2,"id":"x","method":"system.ping"}"#, "unsupported_version", "version"),
            (#"{"version":1,"method":"system.ping"}"#, "invalid_request", "id"),
            (#"{"version":1,"id":7,"method":"system.ping"}"#, "invalid_request", "id"),
            (#"{"version":1,"id":"","method":"system.ping"}"#, "invalid_request", "id"),
            (#"{"version":1,"id":"x"}"#, "invalid_request", "method"),
            (#"{"version":1,"id":"x","method":"history.nope"}"#, "unknown_method", "method"),
            (#"{"version":1,"id":"x","method":"system.ping","deadline":"soon"}"#, "invalid_request", "deadline"),
            (
                #"{"version":1,"id":"x","method":"system.ping","deadline":"2020-01-01T00:00:00Z"}"#,
                "deadline_exceeded", nil
            ),
            (#"{"version":1,"id":"x","method":"test.echo_steps"}"#, "invalid_request", "params"),
            (#"{"version":1,"id":"x","method":"test.echo_steps","params":{}}"#, "invalid_params", "params.time_zone"),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{"time_zone":"Mars/Base","today":"2026-01-01"}}"#,
                "invalid_params", "params.time_zone"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{"time_zone":"UTC"}}"#, "invalid_params",
                "params.now"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{"time_zone":"UTC","today":"2025-02-30"}}"#,
                "invalid_params", "params.today"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{"time_zone":"UTC","now":"2025-02-03T10:00:00"}}"#,
                "invalid_params", "params.now"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{\#(base)}}"#, "invalid_params",
                "params.records"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{\#(base),"records":[{"date":"2026-01-01","steps":-1}]}}"#,
                "invalid_params", "params.records[0].steps"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{\#(base),"records":[{"date":"2026-01-01","steps":"9"}]}}"#,
                "invalid_params", "params.records[0].steps"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{\#(base),"records":[{"date":"2026-01-01","steps":1e300}]}}"#,
                "invalid_params", "params.records[0].steps"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{\#(base),"records":[{"date":"2026-01-01","steps":1},{"date":"2026-01-01","steps":2}]}}"#,
                "invalid_params", "params.records[1].date"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{\#(base),"records":[{"date":"2026-01-01","steps":1},{"date":"2026-01-02","steps":1},{"date":"2026-01-03","steps":1},{"date":"2026-01-04","steps":1}]}}"#,
                "payload_too_large", "params.records"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{"time_zone":"UTC","today":"2026-01-10","goal_log":[],"records":[]}}"#,
                "invalid_params", "params.goal_log"
            ),
            (
                #"{"version":1,"id":"x","method":"test.echo_steps","params":{"time_zone":"UTC","today":"2026-01-10","goal_log":[{"effective_date":"2026-01-01","goal":0}],"records":[]}}"#,
                "invalid_params", "params.goal_log[0].goal"
            ),
        ] as [(String, String, String?)])
    func badInputGetsAPreciseError(body: String, code: String, field: String?) throws {
        let result = try error(body)
        #expect(result.code == code)
        #expect(result.field == field)
    }

    @Test func anExpiredRequestIsAnsweredWithoutRunningItsMethod() {
        let logger = Logger(label: "test")
        let expired = #"{"version":1,"id":"x","method":"system.ping","deadline":"2020-01-01T00:00:00Z"}"#
        let late = dispatcher.respond(to: Array(expired.utf8), service: "tally.history", logger: logger)
        #expect(late.errorCode == .deadlineExceeded)
        #expect(late.computed == false)
        let fresh = dispatcher.respond(
            to: Array(#"{"version":1,"id":"y","method":"system.ping"}"#.utf8), service: "tally.history", logger: logger)
        #expect(fresh.errorCode == nil)
        #expect(fresh.computed)
    }

    @Test func aBodyThatIsNotUTF8IsMalformedEvenWhenFoundationCouldDecodeIt() throws {
        let ping = #"{"version":1,"id":"u","method":"system.ping"}"#
        let utf16 = Array(ping.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let badIDBytes = Array(#"{"version":1,"id":""#.utf8) + [0xC3, 0x28] + Array(#"","method":"system.ping"}"#.utf8)
        for body in [utf16, badIDBytes, Array(ping.utf8) + [0]] {
            let reply = dispatcher.respond(to: body, service: "tally.history", logger: Logger(label: "test"))
            #expect(reply.errorCode == .malformedJSON)
        }
    }

    @Test func errorsEchoTheIDOnceItIsKnown() throws {
        #expect(try error(#"{"version":1,"id":"abc","method":"nope"}"#).id as? String == "abc")
        #expect(try error(#"{"version":9,"id":"abc"}"#).id as? String == "abc")
        #expect(try error("nope").id is NSNull)
    }

    @Test func oversizedBodyIsRefusedBeforeParsing() throws {
        let body =
            #"{"version":1,"id":"big","method":"system.ping","pad":""# + String(repeating: "x", count: 5000) + #""}"#
        let result = try error(body)
        #expect(result.code == "payload_too_large")
        #expect(result.id as? String == "big")
    }

    @Test func unknownMethodListsTheServiceMethods() throws {
        let response = try respond(#"{"version":1,"id":"x","method":"test.echo_steps"}"#, service: "tally.streak")
        let details = try #require((response["error"] as? [String: Any])?["details"] as? [String: Any])
        #expect(details["methods"] as? [String] == ["system.describe", "system.ping"])
    }

    /// Logs and metrics name the method of a request whose params were bad, and never a name the client made up.
    @Test func failuresCarryTheMethodOnlyWhenItIsServed() {
        let logger = Logger(label: "test")
        func reply(_ body: String, service: String = "tally.history") -> ResponseBody {
            dispatcher.respond(to: Array(body.utf8), service: service, logger: logger)
        }
        let badParams = reply(#"{"version":1,"id":"p","method":"test.echo_steps","params":{"records":7}}"#)
        #expect(badParams.errorCode == .invalidParams)
        #expect(badParams.method == "test.echo_steps")
        let unknown = reply(#"{"version":1,"id":"u","method":"made.up"}"#)
        #expect(unknown.errorCode == .unknownMethod)
        #expect(unknown.method == nil)
        let otherService = reply(#"{"version":1,"id":"o","method":"test.echo_steps"}"#, service: "tally.streak")
        #expect(otherService.errorCode == .unknownMethod)
        #expect(otherService.method == nil)
        #expect(reply(#"{"version":1,"id":"h","method":7}"#).method == nil)
    }

    /// The word-at-a-time text check: a NUL or an invalid sequence anywhere (in a word or in the tail) is
    /// malformed; valid non-ASCII text is not.
    @Test func textCheckFindsEveryNULAndInvalidSequenceWhereverItSits() {
        let logger = Logger(label: "test")
        func code(_ body: [UInt8]) -> ErrorCode? {
            dispatcher.respond(to: body, service: "tally.history", logger: logger).errorCode
        }
        let prefix = Array(#"{"version":1,"id":""#.utf8)
        let suffix = Array(#"","method":"system.ping"}"#.utf8)
        for length in 0..<20 {
            let id = [UInt8(ascii: "x")] + [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(code(prefix + id + suffix) == nil)
            #expect(code(prefix + id + [0] + suffix) == .malformedJSON, "NUL after \(length) bytes of id")
            #expect(code(prefix + id + [0xC3] + suffix) == .malformedJSON, "truncated sequence after \(length)")
            #expect(code(prefix + id + [0xC3, 0xA9] + suffix) == nil, "é after \(length)")
            #expect(code(prefix + id + [0xF0, 0x9F, 0x98, 0x80] + suffix) == nil, "😀 after \(length)")
            #expect(code(prefix + id + [0xED, 0xA0, 0x80] + suffix) == .malformedJSON, "surrogate after \(length)")
        }
        #expect(code(prefix + suffix + [0]) == .malformedJSON)
    }
}
