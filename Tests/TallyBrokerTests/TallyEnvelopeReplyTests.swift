import Majordomo
import TallyBroker
import TallyProtocol
import Testing
import ZeroMQ

/// What the broker reads of each reply for the console (its id and, for an error, its code), and the code it
/// counts for each of its own answers, which must be the code that answer carries.
@Suite struct TallyEnvelopeReplyTests {
    let envelope = TallyEnvelope()

    @Test func aReplysHeadIsItsIDAndItsErrorCode() {
        let ok = envelope.replyHead(of: [Frame(#"{"version":1,"id":"r-1","result":{"pong":true}}"#)])
        #expect(ok.correlationKey.map(Array.init) == Array("r-1".utf8))
        #expect(ok.errorCode == nil)
        let failed = envelope.replyHead(
            of: [Frame(#"{"version":1,"id":"r-2","error":{"code":"invalid_params","message":"no"}}"#)])
        #expect(failed.correlationKey.map(Array.init) == Array("r-2".utf8))
        #expect(failed.errorCode.map(Array.init) == Array("invalid_params".utf8))
        #expect(envelope.replyHead(of: [Frame("a"), Frame("b")]).correlationKey == nil, "not a v1 body")
    }

    @Test(arguments: [
        BrokerFailure.overloaded(limit: 3), .noWorker(waited: .seconds(1)), .notServed, .workersLost(attempts: 3),
        .workerTimedOut(held: .seconds(60)), .shuttingDown, .tooManyServices(limit: 256),
        .payloadTooLarge(bytes: 10, limit: 5), .workerDied(workersLost: 2),
    ])
    func theCodeCountedIsTheCodeAnswered(failure: BrokerFailure) throws {
        let reply = envelope.failureReply(for: failure, service: "tally.streak", requestBody: [Frame(#"{"id":"x"}"#)])
        let answered = try #require(EnvelopeScanner.errorCode(in: reply[0].bytes))
        #expect(TallyEnvelope.code(for: failure).rawValue == answered)
    }
}
