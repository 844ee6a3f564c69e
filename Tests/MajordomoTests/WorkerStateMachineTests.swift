@testable import Majordomo
import Testing
import ZeroMQ

/// A worker I/O thread's decisions without a socket, on a hand-advanced clock: what it opens, sends, computes and
/// closes, and when.
@Suite struct WorkerStateMachineTests {
    static let broker = "tcp://127.0.0.1:1"

    /// Heartbeats every second, a broker silent for 3 s is lost, reconnects a second later; two connections of
    /// credit 4 for one service.
    static func machine(services: [String] = ["s"]) -> WorkerStateMachine {
        var configuration = WorkerConfiguration(brokers: [broker], services: services)
        configuration.heartbeatInterval = .seconds(1)
        configuration.heartbeatLiveness = 3
        configuration.reconnectDelay = .seconds(1)
        configuration.concurrency = 8
        configuration.connections = 2
        return WorkerStateMachine(sessions: WorkerSession.all(for: configuration), instance: "abc", name: "host/1")
    }

    /// The machine with every connection open and READY sent, at time zero.
    static func connectedMachine() -> WorkerStateMachine {
        var machine = machine()
        var actions: [WorkerAction] = []
        machine.tick(now: .zero, into: &actions)
        for case .connect(let connection) in actions { machine.connected(connection, now: .zero, into: &actions) }
        return machine
    }

    static let client = Frame("client-1")

    static func request(_ body: String) -> Received<WorkerInbound> {
        .message(.request(client: client, body: [Frame(body)]))
    }

    @Test func everyConnectionOpensAtOnceAndSaysReadyWithTheProcessCapabilities() {
        var machine = Self.machine(services: ["a", "b"])
        var actions: [WorkerAction] = []
        machine.tick(now: .zero, into: &actions)
        #expect(actions == (0..<4).map { .connect(connection: $0) })
        actions.removeAll()
        machine.connected(2, now: .zero, into: &actions)
        let capabilities = WorkerCapabilities(instance: "abc", credit: 4, name: "host/1")
        #expect(
            actions == [.send(connection: 2, frames: WorkerOutbound.ready(service: "b", capabilities: capabilities))])
        #expect(machine.status.services["b"]?.connected == 1 && machine.status.services["b"]?.registered == 0)
    }

    @Test func heartbeatsGoOutEachIntervalAndASilentBrokerIsDroppedThenTriedAgain() {
        var machine = Self.connectedMachine()
        var actions: [WorkerAction] = []
        #expect(machine.nextDeadline == .seconds(1))
        machine.tick(now: .milliseconds(999), into: &actions)
        #expect(actions.isEmpty)
        machine.tick(now: .seconds(1), into: &actions)
        #expect(actions == [0, 1].map { .send(connection: $0, frames: WorkerOutbound.heartbeat) })
        actions.removeAll()

        // Connection 0 hears from its broker at 2.5 s; connection 1's broker stays silent.
        machine.received(.message(.heartbeat), on: 0, now: .milliseconds(2500), into: &actions)
        machine.tick(now: .seconds(3), into: &actions)
        #expect(
            actions == [
                .send(connection: 0, frames: WorkerOutbound.heartbeat),
                .notice(.brokerSilent(connection: 1, silence: .seconds(3))), .close(connection: 1),
            ])
        actions.removeAll()
        machine.tick(now: .milliseconds(3999), into: &actions)
        #expect(!actions.contains(.connect(connection: 1)), "not before the reconnect delay")
        actions.removeAll()
        machine.tick(now: .seconds(4), into: &actions)
        #expect(actions.contains(.connect(connection: 1)))
        #expect(!actions.contains(.close(connection: 0)), "heard from at 2.5 s: patient until 5.5 s")
    }

    @Test func aRequestIsComputedAndItsReplyGoesOnlyToTheSocketThatBroughtIt() throws {
        var machine = Self.connectedMachine()
        var actions: [WorkerAction] = []
        machine.received(Self.request("first"), on: 1, now: .zero, into: &actions)
        guard case .compute(let request, let route) = try #require(actions.first) else {
            Issue.record("\(actions)")
            return
        }
        #expect(request == WorkerRequest(service: "s", body: [Frame("first")], connection: 1))
        #expect(machine.status.services["s"]?.inFlight == 1)
        actions.removeAll()
        machine.completed(route, reply: [Frame("answer")], now: .zero, into: &actions)
        #expect(actions == [.reply(connection: 1, frames: WorkerOutbound.reply(client: Self.client, body: ["answer"]))])
        #expect(machine.status.services["s"]?.inFlight == 0)

        // A request whose connection was replaced before its reply came: the broker already gave it to another
        // worker, so the reply goes nowhere.
        actions.removeAll()
        machine.received(Self.request("second"), on: 1, now: .zero, into: &actions)
        guard case .compute(_, let staleRoute) = try #require(actions.first) else { return }
        machine.received(.message(.disconnect), on: 1, now: .zero, into: &actions)
        machine.tick(now: .seconds(1), into: &actions)
        machine.connected(1, now: .seconds(1), into: &actions)
        actions.removeAll()
        machine.completed(staleRoute, reply: [Frame("late")], now: .seconds(1), into: &actions)
        #expect(actions == [.notice(.replyForClosedConnection(connection: 1))])
        #expect(machine.status.services["s"]?.inFlight == 0)
    }

    @Test func aBrokerThatRefusesTheCapabilitiesIsSentOnePlainReady() {
        var machine = Self.connectedMachine()
        var actions: [WorkerAction] = []
        // A strict MDP/0.1 broker answers a READY it cannot read with DISCONNECT.
        machine.received(.message(.disconnect), on: 0, now: .zero, into: &actions)
        #expect(actions == [.notice(.brokerSentDisconnect(connection: 0)), .close(connection: 0)])
        actions.removeAll()
        machine.tick(now: .seconds(1), into: &actions)
        #expect(actions.contains(.connect(connection: 0)))
        actions.removeAll()
        machine.connected(0, now: .seconds(1), into: &actions)
        #expect(actions == [.send(connection: 0, frames: WorkerOutbound.ready(service: "s"))])
    }

    @Test func anInvalidMessageIsReportedAndStillProvesTheBrokerAlive() {
        var machine = Self.connectedMachine()
        var actions: [WorkerAction] = []
        machine.received(.invalid(sender: .empty, reason: "garbage"), on: 0, now: .seconds(2), into: &actions)
        #expect(actions == [.notice(.invalidMessage(connection: 0, reason: "garbage"))])
        actions.removeAll()
        machine.tick(now: .seconds(3), into: &actions)
        #expect(!actions.contains(.close(connection: 0)))
        #expect(actions.contains(.close(connection: 1)))
    }

    @Test func aDrainSaysGoodbyeAtOnceWhereNothingIsInFlightAndAfterTheLastReplyElsewhere() throws {
        var machine = Self.connectedMachine()
        var actions: [WorkerAction] = []
        machine.received(Self.request("busy"), on: 1, now: .zero, into: &actions)
        guard case .compute(_, let route) = try #require(actions.first) else { return }
        actions.removeAll()

        machine.beginDraining(gracePeriod: .seconds(10), now: .zero, into: &actions)
        #expect(actions == [.sayGoodbye(connection: 0)])
        #expect(machine.status.isDraining && !machine.isFinished(now: .zero))
        actions.removeAll()
        // The busy connection still heartbeats; the closed one is not opened again.
        machine.tick(now: .seconds(2), into: &actions)
        #expect(actions == [.send(connection: 1, frames: WorkerOutbound.heartbeat)])
        actions.removeAll()

        machine.completed(route, reply: ["done"], now: .seconds(2), into: &actions)
        #expect(
            actions == [
                .reply(connection: 1, frames: WorkerOutbound.reply(client: Self.client, body: ["done"])),
                .sayGoodbye(connection: 1),
            ])
        #expect(machine.isFinished(now: .seconds(2)))
    }

    @Test func aDrainEndsAtItsDeadlineAndEveryConnectionLeftSaysGoodbye() throws {
        var machine = Self.connectedMachine()
        var actions: [WorkerAction] = []
        machine.received(Self.request("slow"), on: 0, now: .zero, into: &actions)
        machine.received(Self.request("slow"), on: 1, now: .zero, into: &actions)
        actions.removeAll()
        machine.beginDraining(gracePeriod: .seconds(5), now: .zero, into: &actions)
        #expect(actions.isEmpty)
        #expect(machine.nextDeadline == .seconds(1), "the next heartbeat, before the deadline")
        #expect(!machine.isFinished(now: .milliseconds(4999)))
        #expect(machine.isFinished(now: .seconds(5)))
        machine.finish(now: .seconds(5), into: &actions)
        #expect(actions == [.sayGoodbye(connection: 0), .sayGoodbye(connection: 1)])
        #expect(machine.status.services["s"]?.connected == 0)
    }
}
