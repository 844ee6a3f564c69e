import Foundation
import HTTPTypes
import TallyCalendar
import TallyJSONCoding
import TallyProtocol
import Testing

@testable import TallyGateway

/// How the gateway makes an envelope of an HTTP request, and an HTTP answer of a reply, without a process: the
/// bytes it sends and answers, member by member.
@Suite struct GatewayCallTests {
    static let now = Instant(secondsSince1970: 1_795_000_000)
    static let timeouts = Timeouts(defaultTimeout: .seconds(5), maximum: .seconds(30))
    static let trace = try! TraceHeaders(
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracestate: #"a=1,b="q\x""#)!

    static func value(_ bytes: [UInt8]) throws -> JSONValue {
        try TallyJSONDecoder().decode(JSONValue.self, from: bytes)
    }

    static func call(_ prepared: GatewayCall.Prepared) throws -> GatewayCall {
        guard case .call(let call) = prepared else { throw CallTestError("answered by the gateway: \(prepared)") }
        return call
    }

    static func answer(_ prepared: GatewayCall.Prepared) throws -> GatewayAnswer {
        guard case .answer(let answer) = prepared else { throw CallTestError("sent: \(prepared)") }
        return answer
    }

    @Test func paramsBecomeAnEnvelopeWithTheWireIDDeadlineAndTraceBeforeThem() throws {
        let time = Self.timeouts.time(asked: .seconds(2), now: Self.now)
        let params = Array(#" {"time_zone":"Europe/Berlin","records":[]} "#.utf8)
        let call = try Self.call(
            GatewayCall.forMethod(
                "streak.summary", service: "tally.streak", params: params, trace: Self.trace, time: time, id: "gw-1"))
        let envelope = try Self.value(call.body)
        #expect(envelope["version"] == .number(1))
        #expect(envelope["id"] == .string("gw-1"))
        #expect(envelope["method"] == .string("streak.summary"))
        #expect(envelope["params"]?["time_zone"] == .string("Europe/Berlin"))
        #expect(envelope["deadline"] == .string(Self.now.advanced(by: .seconds(2)).description))
        #expect(envelope["trace"]?["tracestate"] == .string(#"a=1,b="q\x""#), "a header's quotes stay in the string")
        let text = String(decoding: call.body, as: UTF8.self)
        let traceAt = try #require(text.range(of: #""trace""#)).lowerBound
        let paramsAt = try #require(text.range(of: #""params""#)).lowerBound
        #expect(traceAt < paramsAt, "the broker reads trace from the first 4 KiB")
        #expect(call.service == "tally.streak" && call.wireID == "gw-1" && call.time.duration == .seconds(2))
    }

    @Test func anEmptyBodyIsNoParamsAndABodyThatIsNotJSONIsAnsweredAtOnce() throws {
        let time = Self.timeouts.time(asked: nil, now: Self.now)
        let empty = try Self.call(
            GatewayCall.forMethod(
                "system.ping", service: "tally.history", params: Array(" \n".utf8), trace: nil, time: time, id: "gw-2"))
        let envelope = try Self.value(empty.body)
        #expect(envelope["params"] == nil && envelope["trace"] == nil)
        #expect(empty.time.duration == .seconds(5), "the default")
        let refused = try Self.answer(
            GatewayCall.forMethod(
                "system.ping", service: "tally.history", params: Array("{,".utf8), trace: nil, time: time, id: "gw-3"))
        #expect(refused.status == .badRequest)
        #expect(try Self.value(refused.body)["error"]?["code"] == .string("malformed_json"))
        #expect(try Self.value(refused.body)["id"] == .string("gw-3"))
    }

    @Test func anEnvelopeKeepsItsBytesButForTheIDAndGetsADeadlineAndTraceWhenItHasNone() throws {
        let envelope = Array(
            #"{ "version":1, "id":"caller-\u0031", "method":"streak.summary", "params":{"x":"id"} }"#.utf8)
        let call = try Self.call(
            GatewayCall.forEnvelope(
                envelope, methods: .v1, service: nil, trace: Self.trace, asked: .seconds(60), timeouts: Self.timeouts,
                now: Self.now, id: "gw-9"))
        let sent = try Self.value(call.body)
        #expect(sent["id"] == .string("gw-9"))
        #expect(sent["params"] == .object(JSONObject(members: [("x", .string("id"))])))
        #expect(
            sent["deadline"] == .string(Self.now.advanced(by: .seconds(30)).description), "no more than the maximum")
        #expect(sent["trace"]?["traceparent"] == .string(Self.trace.traceparent))
        #expect(call.service == "tally.streak" && call.method == "streak.summary")
        // The reply's id given back as the caller wrote it, escapes and all.
        let reply = Array(#"{"version":1,"id":"gw-9","result":{"streak":3}}"#.utf8)
        let answer = call.answer(reply)
        #expect(answer.status == .ok && answer.requestID == "gw-9")
        #expect(
            String(decoding: answer.body, as: UTF8.self) == #"{"version":1,"id":"caller-\u0031","result":{"streak":3}}"#
        )
    }

    @Test func anEnvelopesOwnDeadlineAndTraceCountAndAPassedOneIsAnsweredAtOnce() throws {
        let soon = Self.now.advanced(by: .seconds(3))
        let traced = Array(
            #"{"version":1,"id":"c","method":"system.ping","deadline":"\#(soon)","trace":{"traceparent":"00-11111111111111111111111111111111-2222222222222222-01"}}"#
                .utf8)
        let call = try Self.call(
            GatewayCall.forEnvelope(
                traced, methods: .v1, service: "tally.workout", trace: Self.trace, asked: nil, timeouts: Self.timeouts,
                now: Self.now, id: "gw-4"))
        let sent = try Self.value(call.body)
        #expect(sent["deadline"] == .string(soon.description))
        #expect(sent["trace"]?["traceparent"] == .string("00-11111111111111111111111111111111-2222222222222222-01"))
        #expect(call.time.duration == .seconds(3))
        #expect(call.service == "tally.workout", "Tally-Service picks a system method's service")

        let past = Array(#"{"version":1,"id":"late","method":"system.ping","deadline":"2020-01-01T00:00:00Z"}"#.utf8)
        let late = try Self.answer(
            GatewayCall.forEnvelope(
                past, methods: .v1, service: nil, trace: nil, asked: nil, timeouts: Self.timeouts, now: Self.now,
                id: "gw-5"))
        #expect(late.status == .gatewayTimeout)
        #expect(try Self.value(late.body)["id"] == .string("late"))
    }

    @Test func envelopesTheWorkerWouldRefuseAreAnsweredAsItWould() throws {
        func answered(_ text: String, service: String? = nil) throws -> (Int, JSONValue) {
            let answer = try Self.answer(
                GatewayCall.forEnvelope(
                    Array(text.utf8), methods: .v1, service: service, trace: nil, asked: nil, timeouts: Self.timeouts,
                    now: Self.now, id: "gw"))
            return (Int(answer.status.code), try Self.value(answer.body))
        }
        let (notJSON, notJSONBody) = try answered("{")
        #expect(notJSON == 400 && notJSONBody["error"]?["code"] == .string("malformed_json"))
        let (noID, noIDBody) = try answered(#"{"version":1,"method":"system.ping"}"#)
        #expect(noID == 400 && noIDBody["error"]?["details"]?["field"] == .string("id") && noIDBody["id"] == .null)
        let (v2, v2Body) = try answered(#"{"version":2,"id":"x","method":"system.ping"}"#)
        #expect(v2 == 400 && v2Body["error"]?["code"] == .string("unsupported_version") && v2Body["id"] == .string("x"))
        let (nowhere, nowhereBody) = try answered(#"{"version":1,"id":"y","method":"nowhere.at_all"}"#)
        #expect(nowhere == 404 && nowhereBody["error"]?["code"] == .string("unknown_method"))
        let (wrongService, wrongServiceBody) = try answered(
            #"{"version":1,"id":"z","method":"history.month"}"#, service: "tally.streak")
        #expect(wrongService == 400 && wrongServiceBody["error"]?["details"]?["field"] == .string("service"))
    }

    @Test func anUnknownMethodOfAKnownAreaGoesToItsServiceForTheWorkerToList() throws {
        let call = try Self.call(
            GatewayCall.forEnvelope(
                Array(#"{"version":1,"id":"u","method":"workout.teleport"}"#.utf8), methods: .v1, service: nil,
                trace: nil, asked: nil, timeouts: Self.timeouts, now: Self.now, id: "gw"))
        #expect(call.service == "tally.workout" && call.method == nil)
    }

    @Test func repliesBecomeAnswers() throws {
        let time = Self.timeouts.time(asked: nil, now: Self.now)
        let call = try Self.call(
            GatewayCall.forMethod(
                "system.ping", service: "tally.history", params: [], trace: nil, time: time, id: "gw-7"))
        let result = call.answer(Array(#"{"version":1,"id":"gw-7","result":  {"a":[1,{"b":"}"}]} }"#.utf8))
        #expect(result.status == .ok)
        #expect(String(decoding: result.body, as: UTF8.self) == #"{"a":[1,{"b":"}"}]}"#, "the result's bytes alone")
        let overloaded = Array(
            #"{"version":1,"id":"gw-7","error":{"code":"overloaded","message":"full","details":{"retry_after_ms":1001}}}"#
                .utf8)
        let busy = call.answer(overloaded)
        #expect(busy.status == .tooManyRequests && busy.body == overloaded, "the v1 error body as it came")
        #expect(busy.headers[.retryAfter] == "2", "rounded up to whole seconds")
        let future = call.answer(
            Array(#"{"version":1,"id":"gw-7","error":{"code":"from_the_future","message":"?"}}"#.utf8))
        #expect(future.status == .internalServerError)
        let broken = call.answer(Array("not a reply".utf8))
        #expect(broken.status == .internalServerError)
        #expect(try Self.value(broken.body)["error"]?["code"] == .string("internal"))
        let timedOut = call.answer(.timedOut("no answer in 5 s"))
        #expect(timedOut.status == .gatewayTimeout)
        #expect(try Self.value(timedOut.body)["id"] == .string("gw-7"))
    }

    @Test(arguments: ErrorStatus.table.map { ($0.key.rawValue, Int($0.value.code)) })
    func everyCodeHasTheStatusTheIssueGivesIt(code: String, status: Int) {
        let expected: [String: Int] = [
            "invalid_params": 400, "invalid_request": 400, "malformed_json": 400, "unsupported_version": 400,
            "unauthorized": 401, "pro_required": 403, "unknown_method": 404, "not_found": 404,
            "method_not_allowed": 405, "payload_too_large": 413, "overloaded": 429, "internal": 500,
            "unavailable": 503, "deadline_exceeded": 504,
        ]
        #expect(expected[code] == status, "\(code)")
    }

    @Test func retryAfterIsWholeSecondsRoundedUp() {
        #expect(ErrorStatus.retryAfter(milliseconds: 0) == "0")
        #expect(ErrorStatus.retryAfter(milliseconds: 1) == "1")
        #expect(ErrorStatus.retryAfter(milliseconds: 1000) == "1")
        #expect(ErrorStatus.retryAfter(milliseconds: 1001) == "2")
        #expect(ErrorStatus.retryAfter(milliseconds: -5) == "0")
    }
}

struct CallTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
