import Foundation
import Logging
import TallyCalendar
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
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let receivedAt = Date()
        let deadline = formatter.string(from: receivedAt.addingTimeInterval(0.1))
        let passesAt = try #require(formatter.date(from: deadline))
        var registry = MethodRegistry()
        registry.register(SlowMethod.self) { _, _ in
            // A computation that ends only once the deadline is behind it, however slow the machine.
            while Date() <= passesAt { Thread.sleep(forTimeInterval: 0.01) }
            return SlowMethod.Result()
        }
        let dispatcher = registry.dispatcher(limits: RequestLimits())
        let body = #"{"version":1,"id":"s","method":"test.slow","params":{},"deadline":"\#(deadline)"}"#
        // Received before its deadline, as the request says: not a moment the test could be descheduled past.
        let reply = dispatcher.respond(
            to: Array(body.utf8), service: "tally.history", now: Instant(receivedAt), logger: Logger(label: "test"))
        #expect(reply.errorCode == .deadlineExceeded)
        #expect(reply.computed, "it was computed: the deadline passed during the computation, not before")
        #expect(reply.requestID == "s")
    }
}
