import Majordomo
import Testing
import ZeroMQ

/// The snapshot the broker's metrics are made from: worker processes counted apart from their connections (a Tally
/// worker opens several per service), the credit those connections offer and what they hold.
@Suite struct BrokerSnapshotTests {
    func machine() -> BrokerStateMachine {
        var configuration = BrokerConfiguration()
        configuration.maxWorkerCredit = 8
        return BrokerStateMachine(configuration: configuration, envelope: OpaqueEnvelope(), now: .zero)
    }

    @Test func processesAreConnectionsGroupedByTheInstanceTheyNameAndPlainConnectionsAreProcessesOfTheirOwn() {
        var broker = machine()
        for connection in ["A1", "A2", "A3"] {
            _ = broker.received(ready(Frame(connection), instance: "process-a", credit: 4), now: .zero)
        }
        _ = broker.received(ready("B1", instance: "process-b", credit: 2), now: .zero)
        _ = broker.received(ready("Plain1"), now: .zero)
        _ = broker.received(ready("Plain2"), now: .zero)
        let echo = broker.snapshot.services["echo"]
        #expect(echo?.workers == 6, "connections")
        #expect(echo?.workerProcesses == 4, "process-a, process-b and two plain MDP/0.1 connections")
        #expect(echo?.credit == 3 * 4 + 2 + 1 + 1)
        #expect(echo?.inFlight == 0)
    }

    @Test func aProcessServingSeveralServicesCountsInEachAndOnlyThere() {
        var broker = machine()
        _ = broker.received(ready("H1", service: "history", instance: "p", credit: 2), now: .zero)
        _ = broker.received(ready("H2", service: "history", instance: "p", credit: 2), now: .zero)
        _ = broker.received(ready("S1", service: "streak", instance: "p", credit: 3), now: .zero)
        _ = broker.received(ready("S2", service: "streak", instance: "q", credit: 3), now: .zero)
        let snapshot = broker.snapshot
        #expect(snapshot.services["history"]?.workerProcesses == 1)
        #expect(snapshot.services["history"]?.workers == 2)
        #expect(snapshot.services["history"]?.credit == 4)
        #expect(snapshot.services["streak"]?.workerProcesses == 2)
        #expect(snapshot.services["streak"]?.credit == 6)
    }

    @Test func inFlightIsWhatTheConnectionsHoldAndTheRestWaitsInTheQueue() {
        var broker = machine()
        _ = broker.received(ready("W1", instance: "p", credit: 2), now: .zero)
        _ = broker.received(ready("W2", instance: "p", credit: 1), now: .zero)
        let sent = (1...5).flatMap { dispatches(broker.received(request("C", Frame("r\($0)")), now: .zero)) }
        #expect(sent.count == 3)
        var echo = broker.snapshot.services["echo"]
        #expect(echo?.inFlight == 3)
        #expect(echo?.queued == 2)
        #expect(echo?.idleWorkers == 0)

        _ = broker.received(reply(sent[0].worker, sent[0].token, "a1"), now: .zero)
        echo = broker.snapshot.services["echo"]
        #expect(echo?.inFlight == 3, "the freed credit took the next queued request at once")
        #expect(echo?.queued == 1)

        // The connection goes: what it held goes back to the queue and its credit leaves the capacity.
        _ = broker.lose("W1", at: .seconds(1))
        echo = broker.snapshot.services["echo"]
        #expect(echo?.workers == 1)
        #expect(echo?.credit == 1)
        #expect(echo?.inFlight == 1)
        #expect(echo?.workerProcesses == 1)
    }

    @Test func theDetailedSnapshotListsEachProcessWithWhatItServedAndWhenItWasLastHeard() {
        var broker = BrokerStateMachine(
            configuration: BrokerConfiguration(), envelope: ErrorCodedEnvelope(), now: .zero)
        _ = broker.received(ready("A1", instance: "a", credit: 2, name: "host-a/1"), now: .zero)
        _ = broker.received(ready("A2", instance: "a", credit: 2, name: "host-a/1"), now: .zero)
        _ = broker.received(ready(Frame([0, 0xAB, 1])), now: .zero)
        let sent = (1...6).flatMap { dispatches(broker.received(request("C", Frame("r\($0)")), now: .zero)) }
        #expect(sent.count == 5, "credit 2 + 2 + 1")
        let fromA = sent.filter { $0.worker == "A1" || $0.worker == "A2" }
        var replies: [BrokerAction] = []
        replies += broker.received(reply(fromA[0].worker, fromA[0].token, "ok"), now: .seconds(1))
        replies += broker.received(reply(fromA[1].worker, fromA[1].token, "error:invalid_params"), now: .seconds(2))
        #expect(
            replies.contains(.event(.errorReplied(service: "echo", code: "invalid_params"))),
            "an error reply is an event of its own, after its delivery")
        // The sixth request took the credit the first reply freed; of two more, one takes the second's.
        _ = broker.received(request("C", "r7"), now: .seconds(2))
        _ = broker.received(request("C", "r8"), now: .seconds(2))

        let echo = broker.detailedSnapshot(now: .seconds(5)).services["echo"]
        #expect(echo?.queued == 1)
        #expect(echo?.oldestWait == .seconds(3))
        #expect(
            echo?.processes == [
                BrokerSnapshot.WorkerProcess(
                    name: nil, id: "00ab01", connections: 1, credit: 1, inFlight: 1, silence: .seconds(5)),
                BrokerSnapshot.WorkerProcess(
                    name: "host-a/1", id: "a", connections: 2, credit: 4, inFlight: 4, served: 2, errors: 1,
                    silence: .seconds(3)),
            ])
        #expect(broker.snapshot.services["echo"]?.processes == [], "the plain snapshot, for metrics, has no detail")
    }

    @Test func aServiceOnlyAClientNamedHasAQueueAndNoWorkers() {
        var broker = machine()
        _ = broker.received(request("C", "r1", service: "nobody"), now: .zero)
        let nobody = broker.snapshot.services["nobody"]
        #expect(nobody == BrokerSnapshot.ServiceState(queued: 1))
    }
}

/// `KeyedEnvelope`'s bodies, plus error replies: a body `error:CODE` is an error response with that code.
struct ErrorCodedEnvelope: ApplicationEnvelope {
    func failureReply(for failure: BrokerFailure, service: String, requestBody: [Frame]) -> [Frame] {
        KeyedEnvelope().failureReply(for: failure, service: service, requestBody: requestBody)
    }

    func correlationKey(of body: [Frame]) -> ArraySlice<UInt8>? { nil }

    func replyHead(of body: [Frame]) -> ReplyHead {
        guard let bytes = body.first?.bytes, bytes.starts(with: Array("error:".utf8)) else { return ReplyHead() }
        return ReplyHead(errorCode: bytes[6...])
    }

    func summary(ofRequest body: [Frame]) -> String { "-" }
}
