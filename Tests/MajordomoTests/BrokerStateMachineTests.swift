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

    func machine(envelope: any ApplicationEnvelope = OpaqueEnvelope()) -> BrokerStateMachine {
        BrokerStateMachine(configuration: configuration, envelope: envelope, now: .zero)
    }

    @Test func queuedRequestGoesToTheFirstWorkerThatIsReady() {
        var broker = machine()
        #expect(sends(broker.received(request("C1", "hello"), now: .zero)).isEmpty)
        let actions = broker.received(ready("W1"), now: .milliseconds(10))
        let dispatched = try! #require(dispatches(actions).first)
        #expect(dispatched.worker == "W1" && dispatched.body == ["hello"])
        #expect(dispatched.token.count == 8, "the worker sees a dispatch token, not the client's routing id")
        let delivered = broker.received(reply("W1", dispatched.token, "HELLO"), now: .milliseconds(30))
        #expect(sends(delivered) == [["C1", "", "MDPC01", "echo", "HELLO"]])
        #expect(events(delivered).contains(.replyDelivered(service: "echo", latency: .milliseconds(30), attempts: 1)))
    }

    @Test func aReadyIsAcknowledgedByAHeartbeatAtOnce() {
        var broker = machine()
        // With a request waiting, the heartbeat goes before the request.
        _ = broker.received(request("C1", "hello"), now: .zero)
        let actions = broker.received(ready("W1"), now: .milliseconds(10))
        #expect(sends(actions).first == ["W1", "", "MDPW01", Frame([0x04])])
        #expect(dispatches(actions).map(\.worker) == ["W1"])
        // Not at the next heartbeat, an interval later: the worker knows at once that it is registered.
        #expect(sends(broker.received(ready("W2"), now: .milliseconds(20))) == [["W2", "", "MDPW01", Frame([0x04])]])
    }

    @Test func everyDispatchHasItsOwnToken() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        _ = broker.received(ready("W2"), now: .zero)
        let first = dispatches(broker.received(request("C", "1"), now: .zero))
        let second = dispatches(broker.received(request("C", "2"), now: .zero))
        #expect(first.count == 1 && second.count == 1)
        #expect(first[0].token != second[0].token, "one client, two requests in flight: two tokens")
    }

    @Test func leastRecentlyUsedWorkerIsChosen() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        _ = broker.received(ready("W2"), now: .zero)
        let first = dispatches(broker.received(request("C", "1"), now: .zero))[0]
        #expect(first.worker == "W1")
        _ = broker.received(reply("W1", first.token, "r1"), now: .zero)
        // W2 has been idle longer than W1 now.
        #expect(dispatches(broker.received(request("C", "2"), now: .zero)).first?.worker == "W2")
        #expect(dispatches(broker.received(request("C", "3"), now: .zero)).first?.worker == "W1")
    }

    @Test func requestOfAnExpiredWorkerGoesToAnotherWorker() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        let stale = dispatches(broker.received(request("C", "job"), now: .zero))[0]
        _ = broker.received(ready("W2"), now: .milliseconds(500))
        // W2 keeps heartbeating; W1 falls silent and expires after 3 s.
        _ = broker.received(BrokerInbound(sender: "W2", message: .heartbeat), now: .milliseconds(2500))
        let actions = broker.tick(now: .milliseconds(3100))
        #expect(events(actions).contains(.workerExpired(worker: "W1", service: "echo")))
        #expect(events(actions).contains(.requestRequeued(service: "echo", attempts: 1)))
        let fresh = try! #require(dispatches(actions).first)
        #expect(fresh.worker == "W2" && fresh.body == ["job"])
        // W1's late reply is dropped and W1 told to go away; W2's reply is the one the client gets.
        let late = broker.received(reply("W1", stale.token, "stale"), now: .milliseconds(3200))
        #expect(sends(late) == [["W1", "", "MDPW01", Frame([5])]])
        let answer = broker.received(reply("W2", fresh.token, "fresh"), now: .milliseconds(3300))
        #expect(sends(answer) == [["C", "", "MDPC01", "echo", "fresh"]])
    }

    // MARK: Replies reach only the client that asked

    @Test func aDuplicateReplyNeverReachesTheNextClient() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        let first = dispatches(broker.received(request("C1", "private-1"), now: .zero))[0]
        #expect(dispatches(broker.received(request("C2", "private-2"), now: .zero)).isEmpty, "queued behind C1")
        // W1 answers C1; the broker hands it C2's request.
        let answered = broker.received(reply("W1", first.token, "answer-1"), now: .milliseconds(1))
        #expect(sends(answered).contains(["C1", "", "MDPC01", "echo", "answer-1"]))
        #expect(dispatches(answered).first?.body == ["private-2"])
        // W1 sends the same REPLY again while it holds C2's request: refused, W1 dropped, C2's request re-queued.
        let duplicate = broker.received(reply("W1", first.token, "answer-1"), now: .milliseconds(2))
        #expect(!sends(duplicate).contains { $0.first == "C2" || $0.first == "C1" }, "no client gets anything")
        #expect(sends(duplicate) == [["W1", "", "MDPW01", Frame([5])]])
        #expect(events(duplicate).contains(.replyRefused(worker: "W1", service: "echo", reason: .notHeld)))
        #expect(events(duplicate).contains(.requestRequeued(service: "echo", attempts: 1)))
        // An honest worker gives C2 its own answer.
        let honest = dispatches(broker.received(ready("W2"), now: .milliseconds(3)))[0]
        #expect(honest.body == ["private-2"])
        #expect(
            sends(broker.received(reply("W2", honest.token, "answer-2"), now: .milliseconds(4))) == [
                ["C2", "", "MDPC01", "echo", "answer-2"]
            ])
    }

    @Test(arguments: [
        Frame("B"), Frame([0, 0, 0, 0, 0, 0, 0, 99]), Frame.empty, Frame([UInt8](repeating: 7, count: 64)),
    ])
    func aReplyWithInventedAddressIsRefused(address: Frame) {
        var broker = machine()
        _ = broker.received(ready("W"), now: .zero)
        let held = dispatches(broker.received(request("B", "b's request"), now: .zero))[0]
        let forged = broker.received(reply("W", address, "to whom it may concern"), now: .seconds(1))
        #expect(!sends(forged).contains { $0.first == "B" })
        #expect(events(forged).contains(.replyRefused(worker: "W", service: "echo", reason: .notHeld)))
        // B's request waits for another worker; the forger's real token is spent with its connection.
        let retried = dispatches(broker.received(ready("W2"), now: .seconds(1)))
        #expect(retried.map(\.body) == [["b's request"]])
        #expect(
            sends(broker.received(reply("W", held.token, "late"), now: .seconds(1))) == [
                ["W", "", "MDPW01", Frame([5])]
            ])
    }

    @Test func aReplyCarryingAnotherRequestsIdIsRefused() {
        var broker = machine(envelope: KeyedEnvelope())
        _ = broker.received(ready("W"), now: .zero)
        let held = dispatches(broker.received(request("C", "id-1:question"), now: .zero))[0]
        let crossed = broker.received(reply("W", held.token, "id-2:someone else's answer"), now: .zero)
        #expect(!sends(crossed).contains { $0.first == "C" })
        #expect(events(crossed).contains(.replyRefused(worker: "W", service: "echo", reason: .correlationMismatch)))
        // A reply without a readable key is not compared (an honest worker answers unreadable requests that way).
        let again = dispatches(broker.received(ready("W2"), now: .zero))[0]
        #expect(
            sends(broker.received(reply("W2", again.token, "no key here"), now: .zero)) == [
                ["C", "", "MDPC01", "echo", "no key here"]
            ])
    }

    @Test func aDuplicateReplyFromAnIdleWorkerIsRefused() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        let held = dispatches(broker.received(request("C", "job"), now: .zero))[0]
        #expect(sends(broker.received(reply("W1", held.token, "once"), now: .zero)).count == 1)
        let again = broker.received(reply("W1", held.token, "twice"), now: .zero)
        #expect(sends(again) == [["W1", "", "MDPW01", Frame([5])]])
        #expect(events(again) == [.replyRefused(worker: "W1", service: "echo", reason: .notHeld)])
        #expect(broker.snapshot.services["echo"]?.workers == 0, "the worker is forgotten")
    }

    @Test func aWorkerThatMisbehavesRepeatedlyUsesUpTheAttempts() {
        var broker = machine()
        _ = broker.received(request("C", "job"), now: .zero)
        for (attempt, worker) in ["W1", "W2"].enumerated() {
            _ = broker.received(ready(Frame(worker)), now: .zero)
            let refused = broker.received(reply(Frame(worker), Frame("forged"), "x"), now: .zero)
            if attempt == 0 {
                #expect(events(refused).contains(.requestRequeued(service: "echo", attempts: 1)))
            } else {
                #expect(events(refused).contains(.requestFailed(service: "echo", failure: .workersLost(attempts: 2))))
                #expect(
                    sends(refused).contains(["C", "", "MDPC01", "echo", "error: the request lost its worker 2 time(s)"])
                )
            }
        }
    }

    // MARK: How a lost worker costs its requests

    @Test func aCleanGoodbyeReturnsRequestsWithoutChargingThem() {
        var broker = machine()
        _ = broker.received(request("C", "job"), now: .zero)
        // Many more goodbyes than attempts: each gives the dispatch back.
        for index in 0..<5 {
            let worker = Frame("W\(index)")
            #expect(dispatches(broker.received(ready(worker), now: .seconds(index % 2))).count == 1)
            let goodbye = broker.received(BrokerInbound(sender: worker, message: .disconnect), now: .seconds(index % 2))
            #expect(events(goodbye).contains(.requestReturned(service: "echo")))
            #expect(!events(goodbye).contains { if case .requestRequeued = $0 { true } else { false } })
        }
        let served = dispatches(broker.received(ready("W9"), now: .seconds(1)))[0]
        let answer = broker.received(reply("W9", served.token, "done"), now: .seconds(1))
        #expect(events(answer).contains(.replyDelivered(service: "echo", latency: .seconds(1), attempts: 1)))
    }

    @Test func aGoodbyeReadAfterTheClosedConnectionIsStillAGoodbye() {
        var broker = machine()
        _ = broker.received(ready("W", instance: "p"), now: .zero)
        let held = dispatches(broker.received(request("C", "answered"), now: .zero))[0]
        _ = broker.received(request("C", "crossing"), now: .zero)
        // W answers, says goodbye and closes; the broker learns that the connection is gone from a send (a
        // heartbeat) before it has read the last reply and the goodbye.
        _ = broker.peerUnreachable(heartbeat(to: "W"), now: .milliseconds(1))
        let answer = broker.received(reply("W", held.token, "the last answer"), now: .milliseconds(2))
        #expect(sends(answer).contains(["C", "", "MDPC01", "echo", "the last answer"]), "read in time: delivered")
        #expect(dispatches(answer).isEmpty, "no new work for a connection that is gone")
        let goodbye = broker.received(BrokerInbound(sender: "W", message: .disconnect), now: .milliseconds(3))
        #expect(events(goodbye).contains(.workerDisconnected(worker: "W", service: "echo")))
        #expect(!events(goodbye).contains { if case .requestRequeued = $0 { true } else { false } })
        #expect(broker.snapshot.services["echo"]?.queued == 1)
        // Nothing is charged: the waiting request goes to the next worker as a first attempt.
        let next = broker.received(ready("W2", instance: "q"), now: .milliseconds(4))
        #expect(dispatches(next).map(\.body) == [["crossing"]])
        #expect(events(broker.tick(now: .seconds(1))).isEmpty, "W is not given up a second time")
    }

    @Test func aReturnedRequestStillAnswersItsQueueTimeout() {
        var broker = machine()
        _ = broker.received(ready("W"), now: .zero)
        _ = broker.received(request("C", "job"), now: .zero)
        // A worker that bounces everything it gets cannot keep a request alive past the queue timeout.
        let goodbye = broker.received(BrokerInbound(sender: "W", message: .disconnect), now: .seconds(6))
        #expect(events(goodbye).contains(.requestFailed(service: "echo", failure: .noWorker(waited: .seconds(6)))))
    }

    @Test func aRequestWhoseIsolatedWorkerAlsoDiesIsAnsweredNotRetried() {
        var broker = machine(envelope: KeyedEnvelope())
        _ = broker.received(request("C", "r-1:poison"), now: .zero)
        _ = broker.received(ready("W1", instance: "p1"), now: .zero)
        let first = broker.lose("W1", at: .seconds(1))
        #expect(events(first).contains(.requestRequeued(service: "echo", attempts: 1)))
        _ = broker.received(ready("W2", instance: "p2"), now: .seconds(1))
        let second = broker.lose("W2", at: .seconds(2))
        #expect(events(second).contains(.requestPoisoned(service: "echo", request: "key=r-1")))
        #expect(events(second).contains(.requestFailed(service: "echo", failure: .workerDied(workersLost: 2))))
        #expect(sends(second).filter { $0.first == "C" }.count == 1)
        _ = broker.received(ready("W3", instance: "p3"), now: .seconds(2))
        #expect(broker.snapshot.services["echo"]?.queued == 0, "not tried a third time")
    }

    /// A process that goes silent and comes back on new connections loses what its old connections held, one
    /// after the other: one process, one loss, so the request is tried again rather than answered as a poison.
    @Test func connectionsOfOneProcessLostInTurnAreOneLoss() throws {
        var configuration = configuration
        configuration.maxAttempts = 3  // the default: this test's machine allows two
        var broker = BrokerStateMachine(configuration: configuration, envelope: KeyedEnvelope(), now: .zero)
        _ = broker.received(ready("P1a", instance: "p1"), now: .zero)
        _ = broker.received(ready("P1b", instance: "p1"), now: .zero)
        let held = dispatches(broker.received(request("C", "r-1:ping"), now: .zero))[0]
        let first = broker.lose(held.worker, at: .seconds(1))
        #expect(events(first).contains(.requestRequeued(service: "echo", attempts: 1)))
        let retried = try #require(dispatches(first).first, "the suspect goes to the process's other connection")
        #expect(retried.body == ["r-1:ping"])
        let second = broker.lose(retried.worker, at: .seconds(2))
        #expect(!events(second).contains { if case .requestFailed = $0 { true } else { false } })
        #expect(events(second).contains(.requestRequeued(service: "echo", attempts: 2)))
        // Back on a new connection, the process answers it.
        let back = try #require(dispatches(broker.received(ready("P1c", instance: "p1"), now: .seconds(2))).first)
        #expect(back.body == ["r-1:ping"])
        let answered = broker.received(reply("P1c", back.token, "r-1:pong"), now: .seconds(2))
        #expect(sends(answered).contains(["C", "", "MDPC01", "echo", "r-1:pong"]))
    }

    @Test func aSuspectRunsOnAProcessOfItsOwn() {
        var broker = machine()
        // P1 has two connections; one holds a request.
        _ = broker.received(ready("P1a", instance: "p1"), now: .zero)
        _ = broker.received(ready("P2a", instance: "p2"), now: .zero)
        _ = broker.received(ready("P1b", instance: "p1"), now: .zero)
        let busy = dispatches(broker.received(request("C", "busy"), now: .zero))[0]
        #expect(busy.worker == "P1a")
        let victim = dispatches(broker.received(request("C", "victim"), now: .zero))[0]
        #expect(victim.worker == "P2a")
        // P2 dies: its request becomes a suspect. P1 is not empty, so the suspect waits and P1 is kept free of
        // new work, even though P1b has room.
        let lost = broker.lose("P2a", at: .seconds(1))
        #expect(dispatches(lost).isEmpty)
        #expect(dispatches(broker.received(request("C", "behind"), now: .seconds(1))).isEmpty)
        // P1 empties: the suspect goes there, alone; the request behind it waits for another process.
        let emptied = broker.received(reply("P1a", busy.token, "ok"), now: .seconds(1))
        #expect(dispatches(emptied).map(\.body) == [["victim"]])
        let suspect = dispatches(emptied)[0]
        let third = dispatches(broker.received(ready("P3a", instance: "p3"), now: .seconds(1)))
        #expect(third.map(\.body) == [["behind"]], "a new process takes what the isolation held back")
        #expect(dispatches(broker.received(request("C", "more"), now: .seconds(1))).isEmpty, "P1 isolated, P3 busy")
        // The suspect is answered: P1 takes work again.
        let done = broker.received(reply(suspect.worker, suspect.token, "survived"), now: .seconds(2))
        #expect(sends(done).contains(["C", "", "MDPC01", "echo", "survived"]))
        #expect(dispatches(done).map(\.body) == [["more"]])
    }

    @Test func aReservationEndsWhenTheSuspectWentElsewhere() {
        var broker = machine()
        for (worker, instance) in [("P1a", "p1"), ("P2a", "p2"), ("P2b", "p2"), ("P3a", "p3")] {
            _ = broker.received(ready(Frame(worker), instance: instance), now: .zero)
        }
        let held = ["a", "b", "b2", "c"].map { dispatches(broker.received(request("C", Frame($0)), now: .zero))[0] }
        #expect(held.map(\.worker) == ["P1a", "P2a", "P2b", "P3a"])
        // P3 dies: its request is a suspect. P1 holds less than P2, so P1 is kept free of new work for it.
        _ = broker.lose("P3a", at: .seconds(1))
        // P2 empties first and takes the suspect; P1 empties next and must not stay reserved.
        _ = broker.received(reply("P2a", held[1].token, "B"), now: .seconds(1))
        let suspect = dispatches(broker.received(reply("P2b", held[2].token, "B2"), now: .seconds(1)))
        #expect(suspect.map(\.body) == [["c"]] && suspect.first?.worker.text?.hasPrefix("P2") == true)
        _ = broker.received(reply("P1a", held[0].token, "A"), now: .seconds(1))
        let next = dispatches(broker.received(request("C", "d"), now: .seconds(1)))
        #expect(next.map(\.worker) == ["P1a"], "the process reserved in vain takes new work again")
    }

    @Test func innocentsBesideAPoisonRequestSurviveIt() {
        var broker = machine(envelope: KeyedEnvelope())
        _ = broker.received(ready("P1a", instance: "p1"), now: .zero)
        _ = broker.received(ready("P1b", instance: "p1"), now: .zero)
        _ = broker.received(request("C", "poison:x"), now: .zero)
        _ = broker.received(request("D", "innocent:y"), now: .zero)
        // The poison request kills P1 with both requests on it: both are suspects now.
        _ = broker.tick(now: .seconds(4))
        _ = broker.received(ready("P2a", instance: "p2"), now: .seconds(4))
        _ = broker.received(ready("P3a", instance: "p3"), now: .seconds(4))
        let state = broker.snapshot.services["echo"]
        #expect(state?.queued == 0 && state?.idleWorkers == 0, "each suspect on a process of its own")
        // The poison request kills P2 (alone); the innocent one on P3 is answered.
        let poisoned = broker.lose("P2a", at: .seconds(5))
        #expect(events(poisoned).contains(.requestFailed(service: "echo", failure: .workerDied(workersLost: 2))))
        #expect(sends(poisoned).contains { $0.first == "C" })
        let innocent = broker.snapshot.services["echo"]
        #expect(innocent?.queued == 0)
        #expect(!sends(poisoned).contains { $0.first == "D" })
    }

    @Test func aWorkerThatHoldsARequestTooLongIsDisconnectedAndTheClientAnswered() {
        var broker = machine()
        _ = broker.received(ready("W1"), now: .zero)
        let held = dispatches(broker.received(request("C", "job"), now: .seconds(1)))[0]
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
        #expect(broker.snapshot.services["echo"]?.workers == 0)
        // The late reply is dropped: the client was answered once.
        let late = broker.received(reply("W1", held.token, "late"), now: .seconds(22))
        #expect(sends(late) == [["W1", "", "MDPW01", Frame([5])]])
        // W1 reconnects afresh and serves again.
        _ = broker.received(ready("W1"), now: .seconds(23))
        #expect(dispatches(broker.received(request("C", "next"), now: .seconds(23))).first?.worker == "W1")
    }

    // MARK: Services without workers

    @Test func aServiceNoWorkerServesIsAnsweredAtOnceOutsideTheGrace() {
        var broker = machine()
        let grace = configuration.serviceGrace
        // Just after the broker started, workers may still be on their way: the request waits for them.
        #expect(events(broker.received(request("C", "early", service: "typo"), now: .zero)).isEmpty)
        #expect(broker.snapshot.services["typo"]?.queued == 1)
        // Later, a name no worker ever registered is answered at once, and leaves nothing behind.
        let late = broker.received(request("C", "late", service: "never"), now: grace + .seconds(1))
        #expect(events(late) == [.requestFailed(service: "never", failure: .notServed)])
        #expect(sends(late) == [["C", "", "MDPC01", "never", "error: no worker serves the service"]])
        #expect(broker.snapshot.services["never"] == nil)
    }

    @Test func aServiceWhoseWorkersLeftIsWaitedForDuringTheGrace() {
        var broker = machine()
        let grace = configuration.serviceGrace
        let start = grace + .seconds(1)
        _ = broker.received(ready("W", service: "echo"), now: start)
        _ = broker.received(BrokerInbound(sender: "W", message: .disconnect), now: start)
        // A rolling restart: the next worker is on its way, so requests wait for it…
        #expect(events(broker.received(request("C", "soon"), now: start + .seconds(1))).isEmpty)
        let served = dispatches(broker.received(ready("W2"), now: start + .seconds(2)))
        #expect(served.map(\.body) == [["soon"]])
        _ = broker.received(reply("W2", served[0].token, "ok"), now: start + .seconds(2))
        _ = broker.received(BrokerInbound(sender: "W2", message: .disconnect), now: start + .seconds(3))
        // …but once the grace has passed with no worker back, the service is answered at once.
        let gone = start + .seconds(3) + grace
        _ = broker.tick(now: gone)
        #expect(broker.snapshot.services["echo"] == nil, "the record goes with the grace")
        let refused = broker.received(request("C", "after"), now: gone)
        #expect(events(refused) == [.requestFailed(service: "echo", failure: .notServed)])
    }

    // MARK: Bounds

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
        #expect(broker.snapshot.services["echo"] == nil, "a service only a client named is forgotten once empty")
    }

    @Test func oversizedBodiesAreRefusedBeforeQueueing() {
        var broker = machine()
        let big = broker.received(request("C", Frame([UInt8](repeating: 1, count: 101))), now: .zero)
        #expect(events(big) == [.requestFailed(service: "echo", failure: .payloadTooLarge(bytes: 101, limit: 100))])
    }

    @Test func servicesNamedOnlyByClientsAreBoundedApartFromServedOnes() {
        var configuration = self.configuration
        configuration.maxWaitingServices = 2
        configuration.maxServices = 3
        var broker = BrokerStateMachine(configuration: configuration, envelope: OpaqueEnvelope(), now: .zero)
        _ = broker.received(request("C", "a", service: "s1"), now: .zero)
        _ = broker.received(request("C", "b", service: "s2"), now: .zero)
        let third = broker.received(request("C", "c", service: "s3"), now: .zero)
        #expect(events(third) == [.requestFailed(service: "s3", failure: .tooManyServices(limit: 2))])
        // A client squatting on every waiting slot cannot keep real workers out.
        #expect(
            events(broker.received(ready("W1", service: "real-1"), now: .zero)).contains(
                .workerReady(worker: "W1", service: "real-1")))
        #expect(
            events(broker.received(ready("W2", service: "real-2"), now: .zero)).contains(
                .workerReady(worker: "W2", service: "real-2")))
        // A worker for a squatted name turns it into a served service, and frees a waiting slot.
        _ = broker.received(ready("W4", service: "s1"), now: .zero)
        #expect(broker.snapshot.services["s1"]?.workers == 1)
        #expect(events(broker.received(request("C", "d", service: "s4"), now: .zero)).isEmpty)
        // Served services have their own bound.
        let refused = broker.received(ready("W3", service: "real-3"), now: .zero)
        #expect(events(refused) == [.protocolViolation(peer: "W3", reason: "service limit reached")])
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
        let running = dispatches(broker.received(request("C", "running"), now: .zero))[0]
        _ = broker.received(request("C", "queued"), now: .zero)
        broker.beginDraining()
        let refused = broker.received(request("C", "late"), now: .zero)
        #expect(events(refused) == [.requestFailed(service: "echo", failure: .shuttingDown)])
        #expect(!broker.isIdle)
        let next = dispatches(broker.received(reply("W", running.token, "r1"), now: .zero))[0]
        _ = broker.received(reply("W", next.token, "r2"), now: .zero)
        #expect(broker.isIdle)
        #expect(sends(broker.finish()) == [["W", "", "MDPW01", Frame([5])]])
    }
}

// MARK: Test vocabulary

/// One request as the broker sent it to a worker.
struct Dispatch {
    let worker: Frame
    let token: Frame
    let body: [Frame]
}

func sends(_ actions: [BrokerAction]) -> [[Frame]] {
    actions.compactMap { if case .send(let frames) = $0 { frames } else { nil } }
}

func events(_ actions: [BrokerAction]) -> [BrokerEvent] {
    actions.compactMap { if case .event(let event) = $0 { event } else { nil } }
}

/// The REQUESTs among `actions`: `worker "" MDPW01 0x02 token "" body…`.
func dispatches(_ actions: [BrokerAction]) -> [Dispatch] {
    sends(actions).compactMap { frames in
        guard frames.count >= 6, frames[2] == MDP.workerHeader, frames[3] == WorkerCommand.request.frame else {
            return nil
        }
        return Dispatch(worker: frames[0], token: frames[4], body: Array(frames[6...]))
    }
}

func request(_ client: Frame, _ body: Frame, service: String = "echo") -> BrokerInbound {
    BrokerInbound(sender: client, message: .request(service: service, body: [body]))
}

func ready(
    _ worker: Frame, service: String = "echo", instance: String? = nil, credit: Int? = nil, name: String? = nil
) -> BrokerInbound {
    let capabilities =
        instance == nil && credit == nil && name == nil
        ? nil : WorkerCapabilities(instance: instance, credit: credit, name: name)
    return BrokerInbound(sender: worker, message: .ready(service: service, capabilities: capabilities))
}

/// A HEARTBEAT the broker sends to `worker`: what typically finds a dead peer unreachable.
func heartbeat(to worker: Frame) -> [Frame] {
    BrokerOutbound.heartbeat(to: worker)
}

extension BrokerStateMachine {
    /// `worker`'s connection is gone (a send to it failed) and nothing more comes from it: what the broker does
    /// once the grace for its last messages has passed.
    mutating func lose(_ worker: Frame, at now: Duration) -> [BrokerAction] {
        peerUnreachable(heartbeat(to: worker), now: now) + tick(now: now + configuration.unreachableGrace)
    }
}

func reply(_ worker: Frame, _ address: Frame, _ body: Frame) -> BrokerInbound {
    BrokerInbound(sender: worker, message: .reply(client: address, body: [body]))
}

/// Bodies `key:payload`: the key ties a reply to its request; a body without a colon has none. The broker's own
/// answers echo the key (`key:error: …`).
struct KeyedEnvelope: ApplicationEnvelope {
    func failureReply(for failure: BrokerFailure, service: String, requestBody: [Frame]) -> [Frame] {
        let key = correlationKey(of: requestBody).map { String(decoding: $0, as: UTF8.self) } ?? "-"
        return [Frame("\(key):error: \(failure)")]
    }

    func correlationKey(of body: [Frame]) -> ArraySlice<UInt8>? {
        guard let bytes = body.first?.bytes, let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return bytes[..<colon]
    }

    func summary(ofRequest body: [Frame]) -> String {
        "key=\(correlationKey(of: body).map { String(decoding: $0, as: UTF8.self) } ?? "-")"
    }
}

extension BrokerStateMachineTests {
    /// The broker is cut off from every worker at once (its host's link, say): the request's first worker is lost,
    /// and the other, which it goes to next, had been silent as long. Losing that one too says nothing about the
    /// request: it is tried again when a worker is back, not answered as a poison.
    @Test func aRequestSentToAWorkerAlreadySilentIsNoPoisonWhenThatWorkerIsLostToo() throws {
        var configuration = configuration
        configuration.maxAttempts = 3  // the default: this test's machine allows two
        var broker = BrokerStateMachine(configuration: configuration, envelope: KeyedEnvelope(), now: .zero)
        _ = broker.received(ready("W1", instance: "p1"), now: .zero)
        _ = broker.received(ready("W2", instance: "p2"), now: .zero)
        let held = dispatches(broker.received(request("C", "r-1:ping"), now: .zero))[0]
        // Both fall silent at once; the first to be lost takes the request with it.
        let first = broker.lose(held.worker, at: .milliseconds(2500))
        #expect(events(first).contains(.requestRequeued(service: "echo", attempts: 1)))
        let isolated = try #require(dispatches(first).first, "the suspect goes to the other process")
        let second = broker.lose(isolated.worker, at: .milliseconds(2600))
        #expect(!events(second).contains { if case .requestPoisoned = $0 { true } else { false } })
        #expect(!sends(second).contains { $0.first == "C" }, "not answered: it waits for a worker")
        #expect(events(second).contains(.requestRequeued(service: "echo", attempts: 2)))
        // A worker comes back and answers it.
        let back = try #require(dispatches(broker.received(ready("W3", instance: "p3"), now: .seconds(3))).first)
        let answered = broker.received(reply("W3", back.token, "r-1:pong"), now: .seconds(3))
        #expect(sends(answered).contains(["C", "", "MDPC01", "echo", "r-1:pong"]))
    }
}
