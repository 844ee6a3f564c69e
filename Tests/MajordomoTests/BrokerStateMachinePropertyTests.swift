import Majordomo
import Testing
import ZeroMQ

/// Random runs of clients, honest and misbehaving workers, crashes, goodbyes and time, checked against what the
/// broker promises whatever happens: every request is answered exactly once, only ever to the client that sent it,
/// and once every worker behaves, nothing stays queued or held.
@Suite struct BrokerStateMachinePropertyTests {
    @Test(arguments: 0..<300)
    func everyRequestIsAnsweredOnceAndOnlyToItsClient(seed: UInt64) {
        var run = BrokerSimulation(seed: seed)
        for _ in 0..<(100 + Int(seed % 400)) { run.step() }
        let before =
            "connections: \(run.connections.map { "\($0.key)@\($0.value.process) holds \($0.value.held.count)" }); \(run.broker.snapshot)"
        run.tracing = true
        let fresh = run.settleHonestly()
        #expect(run.broker.isIdle, "nothing stays queued or held once every worker behaves (seed \(seed))")
        #expect(
            fresh.subtracting(run.answeredByWorkers).isEmpty,
            "requests sent while every worker behaves are answered by workers, not by the broker (seed \(seed))\n\(before)\n\(run.trace.prefix(60).joined(separator: "\n"))"
        )
        run.finish()
        #expect(run.misdelivered.isEmpty, "answers to the wrong client: \(run.misdelivered) (seed \(seed))")
        let answerCounts = Set(run.requests.keys.map { run.answers[$0, default: 0] })
        #expect(answerCounts.isSubset(of: [1]), "answer counts \(answerCounts) (seed \(seed))")
    }

    /// The socket loop ticks only at `nextTick`, so it must never be later than the exact `nextTimer()`, whatever
    /// queued, dispatched, re-queued or lost requests did since the last tick.
    // A few seeds are enough (the bound is checked after every step), and keep this CPU-bound test from crowding
    // the cooperative pool that the suite's socket tests need.
    @Test(arguments: 0..<20)
    func theCheapTimerBoundIsNeverLate(seed: UInt64) {
        var run = BrokerSimulation(seed: seed)
        for step in 0..<(100 + Int(seed % 300)) {
            run.step()
            #expect(
                run.broker.nextTick <= run.broker.nextTimer(),
                "nextTick \(run.broker.nextTick) after nextTimer \(run.broker.nextTimer()) (seed \(seed), step \(step))")
            if run.broker.nextTick > run.now { continue }
            _ = run.broker.tick(now: run.now)
            #expect(run.broker.nextTick == run.broker.nextTimer(), "a tick makes the bound exact (seed \(seed))")
        }
    }
}

/// The world around one broker state machine, driven by a seeded generator.
struct BrokerSimulation {
    struct Connection {
        let process: String
        /// Token → request key of what the broker sent it.
        var held: [Frame: String] = [:]
    }

    var random: SplitMix
    var broker: BrokerStateMachine
    var now: Duration = .zero
    var connections: [Frame: Connection] = [:]
    /// Request key → the client that sent it.
    var requests: [String: Frame] = [:]
    /// Request key → answers its client received.
    var answers: [String: Int] = [:]
    var misdelivered: [String] = []
    /// Requests a worker answered (not the broker).
    var answeredByWorkers: Set<String> = []
    var nextName = 0
    var tracing = false
    var trace: [String] = []

    init(seed: UInt64) {
        random = SplitMix(seed: seed)
        var configuration = BrokerConfiguration()
        configuration.heartbeatInterval = .seconds(1)
        configuration.queueTimeout = .seconds(8)
        configuration.requestTimeout = .seconds(20)
        configuration.maxQueuedPerService = 50
        broker = BrokerStateMachine(configuration: configuration, envelope: KeyedEnvelope(), now: .zero)
    }

    mutating func name(_ prefix: String) -> String {
        nextName += 1
        return "\(prefix)\(nextName)"
    }

    mutating func step() {
        switch random.next(below: 100) {
        case 0..<30:
            let client = Frame("C\(random.next(below: 4))")
            let key = name("k")
            requests[key] = client
            apply(broker.received(request(client, Frame("\(key):question")), now: now))
        case 30..<55:
            if let (id, token, key) = someHeld() {
                apply(broker.received(reply(id, token, Frame("\(key):answer")), now: now))
            }
        case 55..<60:
            // A misbehaving reply: a spent or invented token, or another request's key under a held token.
            guard let id = pick(connections.keys) else { return }
            let forgedKey = requests.keys.sorted().randomElement(using: &random) ?? "nothing"
            let token =
                random.next(below: 2) == 0
                ? (pick(connections[id]!.held.keys) ?? Frame("stale"))
                : Frame((0..<8).map { _ in UInt8(truncatingIfNeeded: random.next(below: 256)) })
            apply(broker.received(reply(id, token, Frame("\(forgedKey):forged")), now: now))
        case 60..<66:
            // A process dies: the broker finds each of its connections unreachable; in half the cases the replies
            // it sent just before are read after that, within the grace; then nothing more comes.
            guard let process = pick(connections.keys).flatMap({ connections[$0]?.process }) else { return }
            let lastWords = random.next(below: 2) == 0
            for id in sorted(connections.keys) where connections[id]?.process == process {
                let held = connections[id]!.held
                connections[id] = nil
                apply(broker.peerUnreachable(heartbeat(to: id), now: now))
                if lastWords {
                    for token in sorted(held.keys) {
                        apply(broker.received(reply(id, token, Frame("\(held[token]!):answer")), now: now))
                    }
                }
            }
            now += broker.configuration.unreachableGrace
            apply(broker.tick(now: now))
        case 66..<70:
            // A process leaves: each connection says goodbye (a crossing request is lost on the wire); in half the
            // cases the broker finds the connection closed before it reads the goodbye.
            guard let process = pick(connections.keys).flatMap({ connections[$0]?.process }) else { return }
            let closedFirst = random.next(below: 2) == 0
            for id in sorted(connections.keys) where connections[id]?.process == process {
                connections[id] = nil
                if closedFirst { apply(broker.peerUnreachable(heartbeat(to: id), now: now)) }
                apply(broker.received(BrokerInbound(sender: id, message: .disconnect), now: now))
            }
        case 70..<78:
            startProcess(connections: 1 + random.next(below: 3))
        default:
            now += .milliseconds(100 * (1 + random.next(below: 20)))
            heartbeatAll()
            apply(broker.tick(now: now))
        }
    }

    /// Every worker answers all it holds while time passes (a fresh process joins only when none is left), and
    /// clients send a few more requests: the queues must drain with the workers there are, whatever isolations and
    /// reservations the run left behind.
    /// - Returns: the keys of the requests sent in this phase.
    mutating func settleHonestly() -> Set<String> {
        if connections.isEmpty { startProcess(connections: 2) }
        var fresh: Set<String> = []
        for round in 0..<200 {
            if round < 5 {
                for _ in 0..<(1 + random.next(below: 3)) {
                    let key = name("k")
                    fresh.insert(key)
                    requests[key] = Frame("C0")
                    apply(broker.received(request("C0", Frame("\(key):question")), now: now))
                }
            }
            while let (id, token, key) = someHeld() {
                apply(broker.received(reply(id, token, Frame("\(key):answer")), now: now))
            }
            if broker.isIdle && round >= 5 { return fresh }
            now += .milliseconds(200)
            heartbeatAll()
            apply(broker.tick(now: now))
        }
        return fresh
    }

    mutating func finish() {
        apply(broker.finish())
    }

    /// A process with `count` connections, each offering credit for 1 to 3 requests at once.
    mutating func startProcess(connections count: Int) {
        let process = name("p")
        let credit = 1 + random.next(below: 3)
        for _ in 0..<count {
            let id = Frame(name("W"))
            connections[id] = Connection(process: process)
            apply(broker.received(ready(id, instance: process, credit: credit), now: now))
        }
    }

    mutating func heartbeatAll() {
        for id in sorted(connections.keys) {
            apply(broker.received(BrokerInbound(sender: id, message: .heartbeat), now: now))
        }
    }

    mutating func someHeld() -> (Frame, Frame, String)? {
        guard let id = pick(connections.filter { !$0.value.held.isEmpty }.keys),
            let token = pick(connections[id]!.held.keys)
        else { return nil }
        return (id, token, connections[id]!.held[token]!)
    }

    /// Frames in a fixed order: random choices must not depend on the process's hash seed, so a seed replays.
    func sorted(_ frames: some Collection<Frame>) -> [Frame] {
        frames.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }

    mutating func pick(_ frames: some Collection<Frame>) -> Frame? {
        sorted(frames).randomElement(using: &random)
    }

    /// Plays the broker's actions out in the simulated world.
    mutating func apply(_ actions: [BrokerAction]) {
        if tracing { for action in actions { trace.append("\(now): \(action)") } }
        for case .send(let frames) in actions {
            let peer = frames[0]
            if frames[2] == MDP.clientHeader {
                let key = String(decoding: frames[4].bytes.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self)
                answers[key, default: 0] += 1
                if requests[key] != peer { misdelivered.append("\(key) to \(peer)") }
                if frames[4].text?.hasSuffix(":answer") == true { answeredByWorkers.insert(key) }
            } else if frames[3] == WorkerCommand.request.frame {
                let key = String(decoding: frames[6].bytes.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self)
                connections[peer]?.held[frames[4]] = key
            } else if frames[3] == WorkerCommand.disconnect.frame {
                // Told to go: the worker closes this connection (a real one would reconnect as a new one).
                connections[peer] = nil
            }
        }
        // A reply the broker took is no longer held by the worker that sent it.
        for (id, connection) in connections {
            connections[id]!.held = connection.held.filter { _, key in answers[key, default: 0] == 0 }
        }
    }
}

/// SplitMix64: a small seeded generator, so that a failing seed replays exactly.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
