@testable import Majordomo
import Testing

/// The client's request bookkeeping, driven with plain values and a hand-advanced clock: no sockets.
@Suite struct ClientStateMachineTests {
    typealias Machine = ClientStateMachine<String, String>

    func accepted(_ registration: Machine.Registration) -> Bool {
        if case .send = registration { true } else { false }
    }

    @Test func repliesAreMatchedByKeyInAnyOrder() {
        var machine = Machine.oneBrokerUp()
        for name in ["a", "b", "c"] {
            let registration = machine.register(
                token: UInt64(name.utf8.first!), key: name, service: "echo", timeout: .seconds(5), waiter: name,
                now: .zero)
            #expect(accepted(registration))
        }
        #expect(machine.answer(key: "b", service: "echo") == "b")
        #expect(machine.answer(key: "c", service: "echo") == "c")
        #expect(machine.answer(key: "b", service: "echo") == nil, "a second reply to b matches nothing")
        #expect(machine.answer(key: "zzz", service: "echo") == nil, "a reply nobody asked for is dropped")
        #expect(machine.answer(key: "a", service: "echo") == "a")
        #expect(machine.pending.isEmpty)
    }

    @Test func unkeyedRequestsAreMatchedInOrderPerService() {
        var machine = Machine.oneBrokerUp()
        for (token, service) in [(1, "mmi.service"), (2, "mmi.service"), (3, "other")] {
            _ = machine.register(
                token: UInt64(token), key: nil, service: service, timeout: .seconds(5), waiter: "\(token)",
                now: .zero)
        }
        #expect(machine.answer(key: nil, service: "other") == "3")
        #expect(machine.answer(key: nil, service: "mmi.service") == "1")
        #expect(machine.answer(key: nil, service: "mmi.service") == "2")
        #expect(machine.answer(key: nil, service: "mmi.service") == nil)
    }

    @Test func aRequestOnItsOwnSocketIsAnsweredByItsTokenOnly() {
        var machine = Machine.oneBrokerUp()
        for token in [1, 2] as [UInt64] {
            _ = machine.register(
                token: token, matching: .token, service: "mmi.service", timeout: .seconds(5), waiter: "\(token)",
                now: .zero)
        }
        #expect(machine.answer(key: nil, service: "mmi.service") == nil, "not matched in order")
        #expect(machine.answer(token: 2) == "2")
        #expect(machine.answer(token: 2) == nil, "a second reply on its socket matches nothing")
        #expect(machine.expire(now: .seconds(5)).map(\.waiter) == ["1"])
        #expect(machine.answer(token: 1) == nil, "the late answer of a query that timed out is dropped")
        #expect(machine.pending.isEmpty)
    }

    @Test func aKeyInFlightCannotBeUsedTwice() {
        var machine = Machine.oneBrokerUp()
        _ = machine.register(token: 1, key: "k", service: "echo", timeout: .seconds(5), waiter: "first", now: .zero)
        guard
            case .refused(let waiter, let error) = machine.register(
                token: 2, key: "k", service: "echo", timeout: .seconds(5), waiter: "second", now: .zero)
        else {
            Issue.record("a duplicate key is refused")
            return
        }
        #expect(waiter == "second" && error == .duplicateKey("k"))
        #expect(machine.answer(key: "k", service: "echo") == "first")
        // Once answered, the key is free again.
        #expect(
            accepted(
                machine.register(token: 3, key: "k", service: "echo", timeout: .seconds(5), waiter: "third", now: .zero)
            ))
    }

    @Test func requestsExpireAtTheirOwnDeadlines() {
        var machine = Machine.oneBrokerUp()
        _ = machine.register(token: 1, key: "slow", service: "echo", timeout: .seconds(5), waiter: "5s", now: .zero)
        _ = machine.register(token: 2, key: "fast", service: "echo", timeout: .seconds(1), waiter: "1s", now: .zero)
        #expect(machine.nextDeadline == .seconds(1))
        #expect(machine.expire(now: .milliseconds(999)).isEmpty)
        let first = machine.expire(now: .seconds(1))
        #expect(first.map(\.waiter) == ["1s"] && first.map(\.timeout) == [.seconds(1)])
        #expect(machine.nextDeadline == .seconds(5))
        #expect(machine.answer(key: "fast", service: "echo") == nil, "a late reply finds nobody waiting")
        #expect(machine.expire(now: .seconds(5)).map(\.waiter) == ["5s"])
        #expect(machine.nextDeadline == nil, "nothing to wake up for")
    }

    @Test func aCancellationBeforeOrAfterRegistrationEndsTheRequestOnce() {
        var machine = Machine.oneBrokerUp()
        _ = machine.register(token: 1, key: "k", service: "echo", timeout: .seconds(5), waiter: "w", now: .zero)
        #expect(machine.cancel(token: 1, now: .zero) == "w")
        #expect(machine.answer(key: "k", service: "echo") == nil)
        // The cancel handler raced the send: the request is refused when it comes.
        #expect(machine.cancel(token: 2, now: .zero) == nil)
        guard
            case .refused(_, let error) = machine.register(
                token: 2, key: "late", service: "echo", timeout: .seconds(5), waiter: "late", now: .seconds(1))
        else {
            Issue.record("a request cancelled before it was registered is refused")
            return
        }
        #expect(error == .cancelled)
        // An early cancellation whose request never comes is forgotten after a while.
        #expect(machine.cancel(token: 3, now: .seconds(2)) == nil)
        _ = machine.expire(now: .seconds(2) + Machine.cancellationMemory)
        #expect(
            accepted(
                machine.register(token: 3, key: "x", service: "echo", timeout: .seconds(5), waiter: "x", now: .zero)))
    }

    @Test func stoppingHandsBackEveryWaiterOnce() {
        var machine = Machine.oneBrokerUp()
        _ = machine.register(token: 1, key: "a", service: "echo", timeout: .seconds(5), waiter: "a", now: .zero)
        _ = machine.register(token: 2, key: nil, service: "mmi.service", timeout: .seconds(5), waiter: "m", now: .zero)
        #expect(Set(machine.stopAll()) == ["a", "m"])
        #expect(machine.stopAll().isEmpty && machine.answer(key: "a", service: "echo") == nil)
    }
}

extension ClientStateMachine where Message == String {
    /// A machine of one broker, connected.
    static func oneBrokerUp() -> Self {
        var machine = Self(brokers: 1)
        _ = machine.brokerUp(0)
        return machine
    }

    /// `register` with the request's message named after its token.
    mutating func register(
        token: UInt64, key: String?, service: String, timeout: Duration, waiter: Waiter, now: Duration
    ) -> Registration {
        register(
            token: token, key: key, service: service, timeout: timeout, message: "request \(token)", waiter: waiter,
            now: now)
    }

    mutating func register(
        token: UInt64, matching: Matching, service: String, timeout: Duration, waiter: Waiter, now: Duration
    ) -> Registration {
        register(
            token: token, matching: matching, service: service, timeout: timeout, message: "request \(token)",
            waiter: waiter, now: now)
    }
}
