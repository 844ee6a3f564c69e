import Foundation
import Logging
import TallyProtocol
import TallyWorker
import Testing

/// A method slower than the request's deadline: the worker computes it (the deadline had not passed when it
/// started) but answers `deadline_exceeded`, never a late result.
enum SlowMethod: TallyMethod {
    static let name = "test.slow"
    static let service = TallyService.history

    struct Params: Codable, Sendable {}
    struct Result: Codable, Sendable {}
}

@Suite struct DeadlineDuringComputationTests {
    @Test func aDeadlinePassingWhileTheMethodRunsIsAnsweredDeadlineExceeded() throws {
        var registry = MethodRegistry()
        registry.register(SlowMethod.self) { _, _ in
            Thread.sleep(forTimeInterval: 0.3)
            return SlowMethod.Result()
        }
        let dispatcher = registry.dispatcher(limits: RequestLimits())
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let deadline = formatter.string(from: Date().addingTimeInterval(0.1))
        let body = #"{"version":1,"id":"s","method":"test.slow","params":{},"deadline":"\#(deadline)"}"#
        let reply = dispatcher.respond(to: Array(body.utf8), service: "tally.history", logger: Logger(label: "test"))
        #expect(reply.errorCode == .deadlineExceeded)
        #expect(reply.computed, "it was computed: the deadline passed during the computation, not before")
        #expect(reply.requestID == "s")
    }
}
