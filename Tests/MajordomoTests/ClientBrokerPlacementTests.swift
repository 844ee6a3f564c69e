@testable import Majordomo
import Testing

/// Which broker holds each of a client's requests, and what happens to them when a broker's connection comes and
/// goes: the client's state machine with plain values, no sockets.
@Suite struct ClientBrokerPlacementTests {
    typealias Machine = ClientStateMachine<String, String>

    func broker(_ registration: Machine.Registration) -> Int? {
        if case .send(let broker) = registration { broker } else { nil }
    }

    func register(
        _ machine: inout Machine, _ token: UInt64, timeout: Duration = .seconds(5), now: Duration = .zero
    )
        -> Machine.Registration
    {
        machine.register(
            token: token, key: "k\(token)", service: "echo", timeout: timeout, waiter: "w\(token)", now: now)
    }

    @Test func requestsGoToTheConnectedBrokerHoldingTheFewestInTurn() {
        var machine = Machine(brokers: 3)
        _ = machine.brokerUp(0)
        _ = machine.brokerUp(2)
        let first = (1...4).map { broker(register(&machine, $0)) }
        #expect(first == [0, 2, 0, 2], "equals take turns; broker 1 is not connected")
        _ = machine.answer(key: "k1", service: "echo")
        _ = machine.answer(key: "k3", service: "echo")
        #expect(machine.held(by: 0) == 0 && machine.held(by: 2) == 2)
        #expect([5, 6].map { broker(register(&machine, $0)) } == [0, 0], "the broker holding fewer takes the next")
    }

    /// A broker whose host went silent answers nothing: the one request it took is all it gets while the other
    /// broker answers, long before its connection is known to be lost.
    @Test func aBrokerThatStopsAnsweringStopsBeingChosen() {
        var machine = Machine(brokers: 2)
        _ = machine.brokerUp(0)
        _ = machine.brokerUp(1)
        #expect(broker(register(&machine, 1)) == 0)
        for token: UInt64 in 2...50 {
            #expect(broker(register(&machine, token)) == 1)
            #expect(machine.answer(key: "k\(token)", service: "echo") == "w\(token)")
        }
        #expect(machine.held(by: 0) == 1)
    }

    @Test func aLostBrokersRequestsAreSentAgainElsewhereUnchangedAndInOrder() {
        var machine = Machine(brokers: 2)
        _ = machine.brokerUp(0)
        _ = machine.brokerUp(1)
        for token: UInt64 in 1...6 { _ = register(&machine, token, timeout: .seconds(Int64(token))) }
        let moved = machine.brokerDown(0)
        #expect(moved.map(\.token) == [1, 3, 5], "broker 0 held every other request, oldest first")
        #expect(moved.map(\.message) == ["request 1", "request 3", "request 5"])
        #expect(moved.allSatisfy { $0.broker == 1 })
        #expect(machine.held(by: 0) == 0 && machine.held(by: 1) == 6)
        #expect(machine.pending.count == 6, "nothing was answered or failed")
        // A move is not a new attempt: each request keeps its own deadline.
        #expect(machine.expire(now: .milliseconds(999)).isEmpty)
        #expect(machine.expire(now: .seconds(1)).map(\.waiter) == ["w1"])
        #expect(machine.answer(key: "k3", service: "echo") == "w3", "answered through the broker it moved to")
        #expect(broker(register(&machine, 7)) == 1, "a lost broker takes nothing new")
    }

    @Test func withNoBrokerUpRequestsWaitForTheFirstThatComesUp() {
        var machine = Machine(brokers: 2)
        guard case .waitForBroker = register(&machine, 1), case .waitForBroker = register(&machine, 2) else {
            Issue.record("with no broker up a request waits")
            return
        }
        let placed = machine.brokerUp(1)
        #expect(placed.map(\.token) == [1, 2] && placed.allSatisfy { $0.broker == 1 })
        // The only broker goes: its requests wait again, and go to the next broker up.
        #expect(machine.brokerDown(1).isEmpty)
        #expect(machine.broker(of: 1) == nil && machine.held(by: 1) == 0)
        #expect(machine.expire(now: .seconds(5)).count == 2, "waiting requests still time out")
        _ = register(&machine, 3)
        #expect(machine.brokerUp(0).map(\.token) == [3])
    }

    @Test func aBrokerThatComesBackIsUsedAgain() {
        var machine = Machine(brokers: 2)
        _ = machine.brokerUp(0)
        _ = machine.brokerUp(1)
        _ = machine.brokerDown(0)
        #expect((1...3).map { broker(register(&machine, $0)) } == [1, 1, 1])
        #expect(machine.brokerUp(0).isEmpty, "nothing waited")
        #expect(broker(register(&machine, 4)) == 0, "the returning broker holds the fewest")
    }

    /// Random sequences of registrations, answers, cancellations, expiries and brokers coming and going: every
    /// waiter is handed back exactly once, a request is only ever placed on a broker that is up, a request waits
    /// only while no broker is up, and each broker's count is what it holds.
    @Test(arguments: 0..<40 as Range<UInt64>)
    func everyRequestEndsOnceWhateverTheBrokersDo(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let brokers = Int(random.next() % 3) + 1
        var machine = Machine(brokers: brokers)
        var up = Array(repeating: false, count: brokers)
        var live: [UInt64: String] = [:]
        var ended: [String: Int] = [:]
        var now = Duration.zero
        var nextToken: UInt64 = 1
        func end(_ waiter: String?) { if let waiter { ended[waiter, default: 0] += 1 } }
        func checkPlaced(_ placements: [Machine.Placement]) {
            for placement in placements {
                #expect(up[placement.broker], "placed on broker \(placement.broker) while down")
            }
        }
        for _ in 0..<400 {
            switch random.next() % 8 {
            case 0, 1, 2:
                let token = nextToken
                nextToken += 1
                let registration = machine.register(
                    token: token, key: "k\(token)", service: "echo",
                    timeout: .milliseconds(Int64(random.next() % 500) + 1), waiter: "w\(token)", now: now)
                switch registration {
                case .send(let broker): #expect(up[broker])
                case .waitForBroker: #expect(!up.contains(true))
                case .refused: Issue.record("nothing is refused here")
                }
                live[token] = "w\(token)"
            case 3:
                if let token = live.keys.randomElement(using: &random) {
                    end(machine.answer(key: "k\(token)", service: "echo"))
                    live[token] = nil
                }
            case 4:
                if let token = live.keys.randomElement(using: &random) {
                    end(machine.cancel(token: token, now: now))
                    live[token] = nil
                }
            case 5:
                let broker = Int(random.next() % UInt64(brokers))
                if !up[broker] {
                    up[broker] = true
                    checkPlaced(machine.brokerUp(broker))
                }
            case 6:
                let broker = Int(random.next() % UInt64(brokers))
                if up[broker] {
                    up[broker] = false
                    checkPlaced(machine.brokerDown(broker))
                }
            default:
                now += .milliseconds(Int64(random.next() % 200))
                for (waiter, _) in machine.expire(now: now) {
                    end(waiter)
                    live[UInt64(waiter.dropFirst())!] = nil
                }
            }
            for broker in 0..<brokers {
                let holding = machine.pending.values.filter { $0.broker == broker }.count
                #expect(machine.held(by: broker) == holding)
            }
            if up.contains(true) { #expect(machine.pending.values.allSatisfy { $0.broker != nil }) }
        }
        for waiter in machine.stopAll() { end(waiter) }
        #expect(ended.count == Int(nextToken - 1) && ended.values.allSatisfy { $0 == 1 }, "each waiter once")
    }
}
