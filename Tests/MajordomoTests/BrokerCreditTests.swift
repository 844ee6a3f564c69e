import Majordomo
import Testing
import ZeroMQ

/// Credit: a Tally worker connection that offers credit for several requests gets them pipelined, and every
/// guarantee of one-at-a-time MDP holds for each of them.
@Suite struct BrokerCreditTests {
    var configuration: BrokerConfiguration = {
        var configuration = BrokerConfiguration()
        configuration.heartbeatInterval = .seconds(1)
        configuration.queueTimeout = .seconds(5)
        configuration.maxAttempts = 3
        configuration.maxWorkerCredit = 4
        return configuration
    }()

    func machine(envelope: any ApplicationEnvelope = OpaqueEnvelope()) -> BrokerStateMachine {
        BrokerStateMachine(configuration: configuration, envelope: envelope, now: .zero)
    }

    @Test func aConnectionGetsAsManyRequestsAsItsCredit() {
        var broker = machine()
        _ = broker.received(ready("W", instance: "p", credit: 3), now: .zero)
        let sent = (1...4).flatMap { dispatches(broker.received(request("C", Frame("r\($0)")), now: .zero)) }
        #expect(sent.map(\.body) == [["r1"], ["r2"], ["r3"]], "three on one connection, the fourth waits")
        #expect(Set(sent.map(\.token)).count == 3)
        #expect(broker.snapshot.services["echo"]?.queued == 1)
        // Replies in any order: each frees one credit and the waiting request follows at once.
        let second = broker.received(reply("W", sent[1].token, "a2"), now: .zero)
        #expect(sends(second).contains(["C", "", "MDPC01", "echo", "a2"]))
        #expect(dispatches(second).map(\.body) == [["r4"]])
    }

    @Test func creditIsCappedAndMDPWorkersGetOneAtATime() {
        var broker = machine()
        _ = broker.received(ready("Greedy", instance: "p", credit: 1_000_000), now: .zero)
        _ = broker.received(ready("Plain"), now: .zero)
        let sent = (1...8).flatMap { dispatches(broker.received(request("C", Frame("r\($0)")), now: .zero)) }
        #expect(sent.filter { $0.worker == "Greedy" }.count == 4, "maxWorkerCredit bounds what a worker may claim")
        #expect(sent.filter { $0.worker == "Plain" }.count == 1, "no capabilities: one request at a time")
    }

    @Test func everythingADeadConnectionHeldIsRetriedOnceAloneAndAnsweredOnce() {
        var broker = machine()
        _ = broker.received(ready("W1", instance: "p1", credit: 3), now: .zero)
        for index in 1...3 { _ = broker.received(request(Frame("C\(index)"), Frame("r\(index)")), now: .zero) }
        let lost = broker.lose("W1", at: .seconds(1))
        #expect(events(lost).filter { $0 == .requestRequeued(service: "echo", attempts: 1) }.count == 3)
        // Each is a suspect now: a fresh process with credit 3 takes them one at a time, each alone.
        var next = dispatches(broker.received(ready("W2", instance: "p2", credit: 3), now: .seconds(1)))
        var answered: [Frame] = []
        while let suspect = next.first {
            #expect(next.count == 1, "a suspect runs alone")
            let done = broker.received(reply("W2", suspect.token, "answer"), now: .seconds(1))
            answered += sends(done).compactMap { $0[2] == MDP.clientHeader ? $0[0] : nil }
            next = dispatches(done)
        }
        #expect(answered.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) } == ["C1", "C2", "C3"])
    }

    @Test func aCrossedReplyAmongPipelinedRequestsIsRefused() {
        var broker = machine(envelope: KeyedEnvelope())
        _ = broker.received(ready("W", credit: 3), now: .zero)
        _ = broker.received(request("A", "id-a:q"), now: .zero)
        let b = dispatches(broker.received(request("B", "id-b:q"), now: .zero))[0]
        // A's answer under B's token (a worker that mixed up two requests it holds): refused, nothing delivered.
        let crossed = broker.received(reply("W", b.token, "id-a:A's private answer"), now: .zero)
        #expect(!sends(crossed).contains { $0.first == "A" || $0.first == "B" })
        #expect(events(crossed).contains(.replyRefused(worker: "W", service: "echo", reason: .correlationMismatch)))
        #expect(events(crossed).filter { if case .requestRequeued = $0 { true } else { false } }.count == 2)
        // A fresh connection answers both, each to its own client.
        let again = dispatches(broker.received(ready("W2", credit: 3), now: .zero))
        #expect(again.count == 2)
        var delivered: Set<[Frame]> = []
        for dispatch in again {
            let key = String(decoding: dispatch.body[0].bytes.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self)
            delivered.formUnion(sends(broker.received(reply("W2", dispatch.token, Frame("\(key):ok")), now: .zero)))
        }
        #expect(delivered == [["A", "", "MDPC01", "echo", "id-a:ok"], ["B", "", "MDPC01", "echo", "id-b:ok"]])
    }

    @Test func aGoodbyeReturnsEveryPipelinedRequestFree() {
        var broker = machine()
        _ = broker.received(ready("W", instance: "p", credit: 3), now: .zero)
        for index in 1...3 { _ = broker.received(request("C", Frame("r\(index)")), now: .zero) }
        let goodbye = broker.received(BrokerInbound(sender: "W", message: .disconnect), now: .zero)
        #expect(events(goodbye).filter { $0 == .requestReturned(service: "echo") }.count == 3)
        let resent = dispatches(broker.received(ready("W2", instance: "q", credit: 3), now: .zero))
        #expect(resent.count == 3, "not suspects: all three go at once")
    }
}
