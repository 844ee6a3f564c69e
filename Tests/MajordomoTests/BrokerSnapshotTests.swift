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

    @Test func aServiceOnlyAClientNamedHasAQueueAndNoWorkers() {
        var broker = machine()
        _ = broker.received(request("C", "r1", service: "nobody"), now: .zero)
        let nobody = broker.snapshot.services["nobody"]
        #expect(nobody == BrokerSnapshot.ServiceState(queued: 1))
    }
}
