import Majordomo
import Testing
import ZeroMQ

/// Drives the broker's logic with decoded messages and a hand-advanced clock: no sockets.
@Suite struct BrokerStateMachineTests {
    var configuration: BrokerConfiguration = {
        var configuration = BrokerConfiguration()
        configuration.heartbeatInterval = .seconds(1)
        configuration.heartbeatLiveness = 3
        configuration.queueTimeout = .seconds(5)
        configuration.maxQueuedPerService = 2
        configuration.maxAttempts = 2
        configuration.maxBodyBytes = 100
        configuration.requestTimeout = .seconds(20)
        return configuration
    }()

    func machine() -> BrokerStateMachine {
        BrokerStateMachine(configuration: configuration, failureReplies: PlainTextFailureReplies(), now: .zero)
    }

    func sends(_ actions: [BrokerAction]) -> [[Frame]] {
        actions.compactMap { if case .send(let frames) = $0 { frames } else { nil } }
    }

    func events(_ actions: [BrokerAction]) -> [BrokerEvent] {
        actions.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    func request(_ client: Frame, _ body: Frame, service: String = "echo") -> BrokerInbound {
        BrokerInbound(sender: client, message: .request(service: service, body: [body]))
    }

    func ready(_ worker: Frame, service: String = "echo") -> BrokerInbound {
        BrokerInbound(sender: worker, message: .ready(service: service))
    }

    func reply(_ worker: Frame, to client: Frame, _ body: Frame) -> BrokerInbound {
        BrokerInbound(sender: worker, message: .reply(client: client, body: [body]))
    }

    @Test func queuedRequestGoesToTheFirstWorkerThatIsReady() {
        var broker = machine()
        #expect(sends(broker.received(request("C1", "hello"), now: .zero)).isEmpty)
        let actions = broker.received(ready("W1"), now: .milliseconds(10))
        #expect(sends(actions) == [["W1", "", "MDPW01", Frame([2]), "C1", "", "hello"]])
        let delivered = broker.received(reply("W1", to: "C1", "HELLO"), now: .milliseconds(30))
        #expect(sends(delivered) == [["C1", "", "MDPC01", "echo", "HELLO"]])
        #expect(events(delivered).contains(.replyDelivered(service: "echo", latency: .milliseconds(30), attempts: 1)))
    }

    @Test func leastRecentlyUsedWorkerIsChosen() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        _ = broker.received(ready("W2"), now: .zero)
        #expect(sends(broker.received(request("C", "1"), now: .zero)).first?.first == "W1")
        _ = broker.received(reply("W1", to: "C", "r1"), now: .zero)
        // W2 has been idle longer than W1 now.
        #expect(sends(broker.received(request("C", "2"), now: .zero)).first?.first == "W2")
        #expect(sends(broker.received(request("C", "3"), now: .zero)).first?.first == "W1")
    }

    @Test func requestOfAnExpiredWorkerGoesToAnotherWorker() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        _ = broker.received(request("C", "job"), now: .zero)
        _ = broker.received(ready("W2"), now: .milliseconds(500))
        // W2 keeps heartbeating; W1 falls silent and expires after 3 s.
        _ = broker.received(BrokerInbound(sender: "W2", message: .heartbeat), now: .milliseconds(2500))
        let actions = broker.tick(now: .milliseconds(3100))
        #expect(events(actions).contains(.workerExpired(worker: "W1", service: "echo")))
        #expect(events(actions).contains(.requestRequeued(service: "echo", attempts: 1)))
        #expect(sends(actions).contains(["W2", "", "MDPW01", Frame([2]), "C", "", "job"]))
        // W1's late reply is dropped and W1 told to go away; W2's reply is the one the client gets.
        let late = broker.received(reply("W1", to: "C", "stale"), now: .milliseconds(3200))
        #expect(sends(late) == [["W1", "", "MDPW01", Frame([5])]])
        let answer = broker.received(reply("W2", to: "C", "fresh"), now: .milliseconds(3300))
        #expect(sends(answer) == [["C", "", "MDPC01", "echo", "fresh"]])
    }

    @Test func duplicateReplyFromAnIdleWorkerIsDropped() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        _ = broker.received(request("C", "job"), now: .zero)
        #expect(sends(broker.received(reply("W1", to: "C", "once"), now: .zero)).count == 1)
        let again = broker.received(reply("W1", to: "C", "twice"), now: .zero)
        #expect(sends(again).isEmpty)
        #expect(events(again) == [.replyDropped(worker: "W1", reason: "reply from a worker holding no request")])
    }

    @Test func attemptsAreBoundedAndTheClientIsAnswered() {
        var broker = machine()
        _ = broker.received(request("C", "poison"), now: .zero)
        _ = broker.received(ready("W1"), now: .zero)
        let first = broker.received(BrokerInbound(sender: "W1", message: .disconnect), now: .seconds(1))
        #expect(events(first).contains(.requestRequeued(service: "echo", attempts: 1)))
        _ = broker.received(ready("W2"), now: .seconds(1))
        let second = broker.received(BrokerInbound(sender: "W2", message: .disconnect), now: .seconds(2))
        #expect(events(second).contains(.requestFailed(service: "echo", failure: .workersLost(attempts: 2))))
        #expect(sends(second) == [["C", "", "MDPC01", "echo", "error: the request lost its worker 2 time(s)"]])
    }

    @Test func aWorkerThatHoldsARequestTooLongIsDisconnectedAndTheClientAnswered() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        _ = broker.received(request("C", "job"), now: .seconds(1))
        #expect(broker.nextTimer() == .seconds(1))
        // W1 keeps heartbeating (alive) but never answers.
        for second in 1...20 {
            _ = broker.received(BrokerInbound(sender: "W1", message: .heartbeat), now: .seconds(second))
            _ = broker.tick(now: .seconds(second))
        }
        #expect(broker.nextTimer() == .seconds(21))
        let timedOut = broker.tick(now: .seconds(21))
        #expect(
            events(timedOut).contains(.requestFailed(service: "echo", failure: .workerTimedOut(held: .seconds(20)))))
        #expect(events(timedOut).contains(.workerTimedOut(worker: "W1", service: "echo", held: .seconds(20))))
        #expect(!events(timedOut).contains { if case .requestRequeued = $0 { true } else { false } })
        let answer: [Frame] = ["C", "", "MDPC01", "echo", "error: the worker did not answer within 20.0 seconds"]
        #expect(sends(timedOut).contains(answer))
        #expect(sends(timedOut).contains(["W1", "", "MDPW01", Frame([5])]))
        #expect(broker.snapshot.services["echo"] == nil)
        // The late reply is dropped: the client was answered once.
        let late = broker.received(reply("W1", to: "C", "late"), now: .seconds(22))
        #expect(sends(late) == [["W1", "", "MDPW01", Frame([5])]])
        // W1 reconnects afresh and serves again.
        _ = broker.received(ready("W1"), now: .seconds(23))
        #expect(sends(broker.received(request("C", "next"), now: .seconds(23))).first?.first == "W1")
    }

    @Test func fullQueueAnswersOverloaded() {
        var broker = machine()
        _ = broker.received(request("C", "1"), now: .zero)
        _ = broker.received(request("C", "2"), now: .zero)
        let third = broker.received(request("C", "3"), now: .zero)
        #expect(events(third) == [.requestFailed(service: "echo", failure: .overloaded(limit: 2))])
        #expect(sends(third).count == 1)
        #expect(broker.snapshot.services["echo"]?.queued == 2)
    }

    @Test func waitingRequestsExpireWithAnAnswer() {
        var broker = machine()
        _ = broker.received(request("C", "1"), now: .zero)
        _ = broker.received(request("C", "2"), now: .seconds(2))
        #expect(broker.nextTimer() == .seconds(1))
        #expect(events(broker.tick(now: .seconds(4))).isEmpty)
        let expired = broker.tick(now: .seconds(5))
        #expect(events(expired) == [.requestFailed(service: "echo", failure: .noWorker(waited: .seconds(5)))])
        #expect(broker.snapshot.services["echo"]?.queued == 1)
        _ = broker.tick(now: .seconds(7))
        #expect(broker.snapshot.services["echo"] == nil)
    }

    @Test func oversizedBodiesAreRefusedBeforeQueueing() {
        var broker = machine()
        let big = broker.received(request("C", Frame([UInt8](repeating: 1, count: 101))), now: .zero)
        #expect(events(big) == [.requestFailed(service: "echo", failure: .payloadTooLarge(bytes: 101, limit: 100))])
    }

    @Test func managementInterface() {
        var broker = machine()
        func ask(_ service: String, _ body: Frame) -> [[Frame]] {
            sends(
                broker.received(
                    BrokerInbound(sender: "C", message: .request(service: service, body: [body])), now: .zero))
        }
        #expect(ask("mmi.service", "echo") == [["C", "", "MDPC01", "mmi.service", "404"]])
        _ = broker.received(request("C", "queued"), now: .zero)
        #expect(ask("mmi.service", "echo") == [["C", "", "MDPC01", "mmi.service", "404"]], "a queue is not a worker")
        _ = broker.received(ready("W"), now: .zero)
        #expect(ask("mmi.service", "echo") == [["C", "", "MDPC01", "mmi.service", "200"]])
        #expect(ask("mmi.nonsense", "echo") == [["C", "", "MDPC01", "mmi.nonsense", "501"]])
        _ = broker.tick(now: .seconds(10))
        #expect(
            ask("mmi.service", "echo") == [["C", "", "MDPC01", "mmi.service", "404"]], "expired worker is not live")
    }

    @Test func protocolErrorsFromWorkers() {
        var broker = machine()
        _ = broker.received(ready("W"), now: .zero)
        _ = broker.received(request("C", "job"), now: .zero)
        // A second READY on the same connection: disconnected, its request re-queued.
        let again = broker.received(ready("W"), now: .zero)
        #expect(sends(again).contains(["W", "", "MDPW01", Frame([5])]))
        #expect(events(again).contains(.requestRequeued(service: "echo", attempts: 1)))
        // Heartbeat from an unknown peer: DISCONNECT.
        #expect(
            sends(broker.received(BrokerInbound(sender: "X", message: .heartbeat), now: .zero)) == [
                ["X", "", "MDPW01", Frame([5])]
            ])
        // A worker cannot register for mmi.*.
        #expect(
            sends(broker.received(ready("Y", service: "mmi.service"), now: .zero)) == [["Y", "", "MDPW01", Frame([5])]])
    }

    @Test func heartbeatsGoToEveryWorkerEachInterval() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        _ = broker.received(ready("W2"), now: .zero)
        #expect(sends(broker.tick(now: .milliseconds(900))).isEmpty)
        let beats = Set(sends(broker.tick(now: .seconds(1))))
        #expect(beats == [["W1", "", "MDPW01", Frame([4])], ["W2", "", "MDPW01", Frame([4])]])
    }

    @Test func drainingServesQueuedWorkButRefusesNewWork() {
        var broker = machine()
        _ = broker.received(ready("W"), now: .zero)
        _ = broker.received(request("C", "running"), now: .zero)
        _ = broker.received(request("C", "queued"), now: .zero)
        broker.beginDraining()
        let refused = broker.received(request("C", "late"), now: .zero)
        #expect(events(refused) == [.requestFailed(service: "echo", failure: .shuttingDown)])
        #expect(!broker.isIdle)
        _ = broker.received(reply("W", to: "C", "r1"), now: .zero)
        _ = broker.received(reply("W", to: "C", "r2"), now: .zero)
        #expect(broker.isIdle)
        #expect(sends(broker.finish()) == [["W", "", "MDPW01", Frame([5])]])
    }

    @Test func unknownServicesAreBounded() {
        var configuration = self.configuration
        configuration.maxServices = 2
        var broker = BrokerStateMachine(
            configuration: configuration, failureReplies: PlainTextFailureReplies(), now: .zero)
        _ = broker.received(request("C", "a", service: "s1"), now: .zero)
        _ = broker.received(request("C", "b", service: "s2"), now: .zero)
        let third = broker.received(request("C", "c", service: "s3"), now: .zero)
        #expect(events(third) == [.requestFailed(service: "s3", failure: .tooManyServices(limit: 2))])
    }
}
