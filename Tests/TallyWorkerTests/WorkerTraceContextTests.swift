import Foundation
import Logging
import TallyProtocol
import TallyWorker
import Testing

/// A request's `trace` through the worker: a bad one refused as `invalid_request` naming the member (the reading
/// itself is `TallyProtocolTests.TraceContextTests`), a good one answered.
@Suite struct WorkerTraceContextTests {
    let dispatcher: RequestDispatcher = {
        var registry = MethodRegistry()
        registry.registerSystemMethods(identity: WorkerIdentity(name: "test/1", version: "0.0.0-test"))
        return registry.dispatcher(limits: RequestLimits())
    }()

    func answer(trace: String) throws -> [String: Any] {
        let body = #"{"version":1,"id":"t-1","method":"system.ping","trace":\#(trace)}"#
        let reply = dispatcher.respond(to: Array(body.utf8), service: "tally.history", logger: Logger(label: "test"))
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any])
    }

    @Test(arguments: [
        (#"{"traceparent":"garbage"}"#, "trace.traceparent", "not 7 characters"),
        (
            #"{"traceparent":"00-00000000000000000000000000000000-00f067aa0ba902b7-01"}"#, "trace.traceparent",
            "trace-id must not be all zeros"
        ),
        (
            #"{"traceparent":"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}"#, "trace.traceparent",
            "version ff is invalid"
        ),
        (
            #"{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","tracestate":"x"}"#,
            "trace.tracestate", "must be key=value"
        ),
        (#"{"traceparent":7}"#, "trace.traceparent", "string"),
        (#"{}"#, "trace.traceparent", "is required"),
    ])
    func theWorkerRefusesABadTraceNamingTheMember(trace: String, field: String, problem: String) throws {
        let response = try answer(trace: trace)
        #expect(response["id"] as? String == "t-1")
        let error = try #require(response["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalid_request")
        let details = try #require(error["details"] as? [String: Any])
        #expect(details["field"] as? String == field)
        #expect((details["problem"] as? String ?? "").contains(problem), "\(details)")
        #expect((error["message"] as? String ?? "").hasPrefix("\(field): "))
    }

    @Test func theWorkerAnswersAValidTrace() throws {
        let response = try answer(
            trace: #"{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","tracestate":"a=1"}"#)
        #expect(response["result"] != nil, "\(response)")
    }
}
