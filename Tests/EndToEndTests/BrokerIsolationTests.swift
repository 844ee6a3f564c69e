import Foundation
import Synchronization
import TallyClient
import TallyProtocol
import TallyTesting
import Testing
import ZeroMQ

/// A peer that misbehaves spoils only its own requests: replies never cross to another client, invented names
/// never grow the broker, floods never flood the log.
@Suite(.realProcesses) struct BrokerIsolationTests {
    /// Two clients × 150 pings through a broker whose service has an honest `tally-worker` and a misbehaving raw
    /// MDP worker. Every client gets exactly one answer per request, and only its own: ids are per client, so an
    /// answer carrying another client's id is counted as a stranger.
    @Test(arguments: MisbehavingWorker.Fault.wrongReplies)
    func aMisbehavingWorkerBesideAnHonestOneNeverCrossesReplies(fault: MisbehavingWorker.Fault) async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 0, brokerArguments: ["--http", brokerHTTP, "--max-attempts", "6"])
        let honest = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint, arguments: ["--service", "tally.history", "--concurrency", "2"])
        let rogue = MisbehavingWorker(endpoint: cluster.endpoint, service: "tally.history", fault: fault)
        let rogueRun = Task { try await onOwnThread { try rogue.run() } }
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client, ["tally.history"]))

        let loads = ["alice", "bob"].map { name in
            ExactlyOnceLoad(
                endpoint: cluster.endpoint, inFlight: 4, duration: .seconds(60), limit: 150, idPrefix: name)
        }
        let runs = loads.map { load in Task { try await onOwnThread { try load.run() } } }
        var ledgers: [AnswerLedger] = []
        for run in runs { ledgers.append(try await run.value) }
        rogue.stop()
        let activity = try await rogueRun.value
        let metrics = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
        let refused = ["not_held", "id_mismatch"].map {
            ProcessProbes.sample(#"tally_broker_replies_refused_total{reason="\#($0)"}"#, in: metrics)
        }
        print(
            "misbehaving worker (\(fault)): \(activity.requests) requests taken, \(activity.registrations) registrations, "
                + "replies refused \(refused); alice: \(ledgers[0]); bob: \(ledgers[1])")

        #expect(activity.requests > 0, "the misbehaving worker was given requests")
        #expect(refused.reduce(0, +) > 0, "the broker refused its wrong replies")
        for ledger in ledgers {
            #expect(ledger.sent == 150)
            #expect(ledger.unanswered == 0, "every request answered: \(ledger)")
            #expect(ledger.duplicates == 0, "none answered twice: \(ledger)")
            #expect(ledger.strangers == 0, "no answer meant for another client: \(ledger)")
            #expect(Set(ledger.outcomes.keys).isSubset(of: ["ok", "unavailable"]), "\(ledger)")
            #expect(ledger.outcomes["ok", default: 0] >= 140, "the honest worker served nearly all: \(ledger)")
        }
        #expect(cluster.broker.isRunning && honest.isRunning)
        await client.stop()
        honest.terminate()
        await honest.waitForExit()
        await cluster.stop()
    }

    /// One client sends 10,000 requests, each to a service name of its own invention. The broker answers them all,
    /// its memory and its metrics stay flat, and a real worker of a new service registers during the flood.
    @Test func inventedServiceNamesNeitherGrowTheBrokerNorKeepWorkersOut() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 1, brokerArguments: ["--http", brokerHTTP, "--queue-timeout", "1s"])
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client))
        for _ in 0..<5 { _ = try await client.ping() }
        let pid = cluster.broker.processIdentifier
        let rssBefore = try #require(ProcessProbes.residentKiB(of: pid))
        let seriesBefore = ProcessProbes.seriesCount(await ProcessProbes.metrics(at: brokerHTTP) ?? "")

        let flood = Task { try await onOwnThread { try Self.inventNames(10_000, endpoint: cluster.endpoint) } }
        // While the invented names take every waiting slot, a worker of a service the broker never saw registers.
        let fresh = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: ["--service", "tally.fresh", "--concurrency", "1"])
        #expect(await waitForServices(client, ["tally.fresh"]), "a real worker is not kept out by invented names")
        let pong = try await client.ping(service: TallyService(rawValue: "tally.fresh"))
        #expect(pong.service == "tally.fresh")

        let ledger = try await flood.value
        try await Task.sleep(for: .seconds(2))  // every queue has expired; entries are reclaimed by the broker's tick
        let rssAfterFirst = try #require(ProcessProbes.residentKiB(of: pid))
        // A second flood of new names: what the first one left behind is reused, nothing accumulates.
        let secondLedger = try await onOwnThread {
            try Self.inventNames(10_000, from: 10_000, endpoint: cluster.endpoint)
        }
        try await Task.sleep(for: .seconds(2))
        let rssAfter = try #require(ProcessProbes.residentKiB(of: pid))
        let metrics = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
        let seriesAfter = ProcessProbes.seriesCount(metrics)
        print(
            "2 × 10,000 invented service names: \(ledger); \(secondLedger); broker VmRSS \(rssBefore) → "
                + "\(rssAfterFirst) → \(rssAfter) KiB; metric series \(seriesBefore) → \(seriesAfter)")

        for ledger in [ledger, secondLedger] {
            #expect(ledger.unanswered == 0 && ledger.duplicates == 0 && ledger.strangers == 0, "\(ledger)")
            #expect(Set(ledger.outcomes.keys).isSubset(of: ["unavailable"]), "\(ledger)")
        }
        #expect(!metrics.contains("invented."), "no series is labelled with a name only a client sent")
        // The fresh service adds its own label set (≈ 25 series); outcomes under `unknown` add a few more.
        #expect(seriesAfter - seriesBefore < 60, "metric series stay bounded: \(seriesBefore) → \(seriesAfter)")
        #expect(ProcessProbes.sample(#"tally_broker_queued_requests{service="unknown"}"#, in: metrics) == 0)
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
            // The first flood's growth is mostly what was in flight at its peak (libzmq's pipes, glibc's arenas,
            // which keep what they took): +4 to +10 MiB on a quiet machine, more when a busy one lets messages pile
            // up. What would grow without bound shows in the second flood, which reuses what the first one left.
            #expect(rssAfter - rssBefore < 32 << 10, "broker memory stays flat: +\(rssAfter - rssBefore) KiB")
            #expect(
                rssAfter - rssAfterFirst < 4 << 10, "the second flood adds nothing: +\(rssAfter - rssAfterFirst) KiB")
        }
        await client.stop()
        fresh.terminate()
        await fresh.waitForExit()
        await cluster.stop()
    }

    /// A raw MDP worker beside an honest one takes a request and falls silent past the broker's patience (quick
    /// heartbeats: 1 s) on a connection that stays up, then replies all the same, as a stalled process would. The
    /// broker gave its request to the honest worker meanwhile, and drops the late reply: two clients get exactly one
    /// answer per request, only their own.
    @Test func aLateReplyFromAWorkerGivenUpIsDroppedNotDeliveredTwice() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 0, heartbeats: .quick, brokerArguments: ["--http", brokerHTTP, "--max-attempts", "6"])
        let honest = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint, heartbeats: .quick, arguments: ["--service", "tally.history"])
        let rogue = MisbehavingWorker(
            endpoint: cluster.endpoint, service: "tally.history", fault: .goesSilentThenReplies)
        let rogueRun = Task { try await onOwnThread { try rogue.run() } }
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client, ["tally.history"]))

        let loads = ["alice", "bob"].map { name in
            ExactlyOnceLoad(endpoint: cluster.endpoint, inFlight: 2, duration: .seconds(60), limit: 40, idPrefix: name)
        }
        let runs = loads.map { load in Task { try await onOwnThread { try load.run() } } }
        var ledgers: [AnswerLedger] = []
        for run in runs { ledgers.append(try await run.value) }
        let dropped = await eventually(timeout: .seconds(10)) {
            let metrics = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
            return ProcessProbes.sample("tally_broker_replies_dropped_total", in: metrics) >= 1
        }
        rogue.stop()
        let activity = try await rogueRun.value
        print("silent worker: \(activity.requests) requests taken; alice: \(ledgers[0]); bob: \(ledgers[1])")
        #expect(activity.requests > 0, "the silent worker was given requests")
        #expect(dropped, "its late replies reached the broker and were dropped")
        for ledger in ledgers {
            #expect(ledger.sent == 40)
            #expect(ledger.unanswered == 0, "every request answered: \(ledger)")
            #expect(ledger.duplicates == 0, "none answered twice: \(ledger)")
            #expect(ledger.strangers == 0, "no answer meant for another client: \(ledger)")
            #expect(Set(ledger.outcomes.keys) == ["ok"], "\(ledger)")
        }
        await client.stop()
        honest.terminate()
        await honest.waitForExit()
        await cluster.stop()
    }

    /// A client keeps the table of services that only clients named full (260 new names every second, each request
    /// waiting its 10 s queue timeout within the broker's service grace) while a worker of a service the broker
    /// never saw starts: it registers and serves while the table stays full, and the squatter's excess is answered
    /// `too_many_services` at once. A broker that counted the squatted names against workers would refuse the READY
    /// for as long as the squatting lasts: the worker could register only once it ended.
    @Test func aClientSquattingOnTheServiceTableCannotKeepANewWorkerOut() async throws {
        let cluster = try await TallyCluster.start(workers: 0, brokerArguments: ["--service-grace", "60s"])
        let squatting = Squatter(endpoint: cluster.endpoint)
        let squat = Task { try await onOwnThread { try squatting.run(namesPerSecond: 260) } }
        #expect(await eventually { squatting.refusedAtOnce.load(ordering: .relaxed) > 0 }, "the table is full")

        let clock = ContinuousClock()
        let started = clock.now
        let fresh = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint, arguments: ["--service", "tally.fresh", "--concurrency", "1"])
        let registered = clock.now - started
        let client = try makeClient([cluster.endpoint], timeout: .seconds(30))
        let pong = try await client.ping(service: TallyService(rawValue: "tally.fresh"))
        // Refusals go on after the worker was answered: the table was full before the READY and after the reply,
        // so the worker was let in, and served, while it was full (not in a lull, nor once the squatting ended).
        let refusedByThen = squatting.refusedAtOnce.load(ordering: .relaxed)
        let stillFull = await eventually { squatting.refusedAtOnce.load(ordering: .relaxed) > refusedByThen }
        let stillSquatting = !squatting.isFinished
        squatting.stop()
        let refused = try await squat.value
        print("service-table squatting: \(refused) requests refused at once; tally.fresh registered in \(registered)")
        #expect(pong.service == "tally.fresh")
        #expect(stillFull && stillSquatting, "the worker registered and served while the table was full")
        await client.stop()
        fresh.terminate()
        await fresh.waitForExit()
        // A graceful stop would wait out the squatted requests' queue timeout.
        cluster.broker.kill9()
        await cluster.broker.waitForExit()
    }

    /// A peer floods the broker with malformed messages, then with HEARTBEATs as an unregistered worker (each
    /// answered DISCONNECT), and never reads: hundreds of thousands of dropped messages and violations, a few lines
    /// of log. Once the peer has read nothing for the broker's patience with a silent host (its TCP window shut for
    /// 5 s with the default heartbeats), the broker lets go of its connection and of the answers queued for it (up to
    /// its high-water mark, past which they were dropped), and of whatever it had not read of the flood yet.
    @Test func aFloodingPeerThatNeverReadsCannotFloodTheLog() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 1, brokerArguments: ["--http", brokerHTTP], logLevel: "info")
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client))
        try await Task.sleep(for: .milliseconds(500))
        let logBefore = cluster.broker.errorOutput.utf8.count
        let connectionsBefore = ProcessProbes.total(
            "tally_broker_peer_connections", in: await ProcessProbes.metrics(at: brokerHTTP) ?? "")

        let peer = FloodingPeer()
        let flood = Task { try await onOwnThread { try peer.run(endpoint: cluster.endpoint) } }
        // The peer stays connected (closing a socket with unread data resets the connection, and the broker would
        // lose what it had not read yet) until the broker has counted every malformed message.
        let counted = await eventually(timeout: .seconds(60)) {
            let metrics = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
            return ProcessProbes.sample("tally_broker_protocol_violations_total", in: metrics) >= 50_000
        }
        let letGo = await eventually(timeout: .seconds(60)) {
            let metrics = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
            return ProcessProbes.total("tally_broker_peer_connections", in: metrics) == connectionsBefore
        }
        peer.finish()
        let sent = try await flood.value
        _ = try await client.ping()
        let log = cluster.broker.errorOutput
        let grown = log.utf8.count - logBefore
        let lines = log.utf8.dropFirst(logBefore).split(separator: UInt8(ascii: "\n")).count
        print("log flood: \(sent) messages sent by one peer, broker log grew \(grown) bytes in \(lines) lines")
        #expect(counted, "the broker read the malformed part of the flood")
        #expect(letGo, "the broker let go of the peer that never read")
        #expect(sent == 450_000)
        #expect(grown < 8_000, "a few lines, not one per message: \(grown) bytes\n\(log.suffix(2_000))")
        #expect(log.contains("protocol violation"), "the violations were logged, once")
        // Whether its queue filled before the broker let go of it depends on how fast the broker read meanwhile; if
        // it did, that was said once (and counted in the size above), not once per answer dropped.
        let queueFull = log.components(separatedBy: "peer queue full").count - 1
        #expect(queueFull <= 2, "the answers the peer never read were dropped, and said so once: \(queueFull) lines")
        await client.stop()
        await cluster.stop()
    }
}

extension BrokerIsolationTests {
    /// Sends `count` pings from one raw client, each to a service name of its own (`invented.N`), and collects
    /// every answer.
    static func inventNames(_ count: Int, from first: Int = 0, endpoint: String) throws -> AnswerLedger {
        let raw = try RawMDPClient(context: try Context(), endpoint: endpoint, receiveTimeout: .milliseconds(50))
        var ledger = AnswerLedger()
        var sentIDs = Set<String>()
        for index in first..<(first + count) {
            let id = "invented-\(index)"
            try raw.request(service: "invented.\(index)", body: RawMDPClient.ping(id: id))
            sentIDs.insert(id)
            ledger.sent += 1
            while let frames = try? raw.socket.receive(maxFrames: 8, dontWait: true) {
                ledger.record(RawReply(frames: frames.frames), sentIDs: sentIDs)
            }
        }
        let giveUp = ContinuousClock.now + .seconds(30)
        while ledger.unanswered > 0, ContinuousClock.now < giveUp {
            if let frames = try raw.receive() { ledger.record(RawReply(frames: frames), sentIDs: sentIDs) }
        }
        return ledger
    }
}

/// A DEALER that sends 400,000 HEARTBEATs and 50,000 messages with an unknown command, never reads, and stays
/// connected until told to finish.
final class FloodingPeer: Sendable {
    private let finished = Atomic(false)

    func finish() { finished.store(true, ordering: .relaxed) }

    /// - Returns: how many messages were sent.
    func run(endpoint: String) throws -> Int {
        let socket = try Socket(try Context(), type: .dealer)
        defer { socket.close() }
        try socket.set(.sendHighWaterMark, 0)
        try socket.set(.receiveHighWaterMark, 1)
        // A small kernel buffer: the broker's answers back up into its own queue for this peer soon.
        try socket.set(.receiveBuffer, 1024)
        try socket.connect(endpoint)
        var sent = 0
        for index in 0..<50_000 where try socket.send(["", "MDPW01", Frame([0x09]), Frame("\(index)")]) {
            sent += 1
        }
        for _ in 0..<400_000 where try socket.send(["", "MDPW01", Frame([0x04])]) { sent += 1 }
        while !finished.load(ordering: .relaxed) { Thread.sleep(forTimeInterval: 0.05) }
        return sent
    }
}

/// A raw client that names new services without end, a batch every second, and counts the requests the broker
/// refused at once because the table of services without workers was full.
final class Squatter: Sendable {
    let endpoint: String
    let refusedAtOnce = Atomic(0)
    private let stopped = Atomic(false)
    private let finished = Atomic(false)

    init(endpoint: String) { self.endpoint = endpoint }

    func stop() { stopped.store(true, ordering: .relaxed) }

    var isFinished: Bool { finished.load(ordering: .relaxed) }

    /// Runs until `stop()` or 60 s; returns how many requests were refused because the table was full.
    func run(namesPerSecond: Int) throws -> Int {
        defer { finished.store(true, ordering: .relaxed) }
        let raw = try RawMDPClient(context: try Context(), endpoint: endpoint, receiveTimeout: .milliseconds(20))
        var next = 0
        let end = ContinuousClock.now + .seconds(60)
        while !stopped.load(ordering: .relaxed), ContinuousClock.now < end {
            let second = ContinuousClock.now + .seconds(1)
            for _ in 0..<namesPerSecond {
                try raw.request(service: "invented.\(next)", body: RawMDPClient.ping(id: "squat-\(next)"))
                next += 1
            }
            while ContinuousClock.now < second, !stopped.load(ordering: .relaxed) {
                // `unavailable` with the table's limit in its details: refused at once, not queued.
                if let frames = try raw.receive(), RawReply(frames: frames).errorLimit != nil {
                    refusedAtOnce.add(1, ordering: .relaxed)
                }
            }
        }
        return refusedAtOnce.load(ordering: .relaxed)
    }
}
