import Foundation
import Synchronization
import TallyClient
import TallyTesting
import Testing
import ZeroMQ

/// Ten times more requests than the workers can serve: the queue stays bounded, the excess is answered
/// `overloaded` at once, the broker's memory stays flat, and full service returns when the flood stops.
@Suite(.realProcesses) struct OverloadTests {
    static let maxQueue = 20

    @Test func aFloodOfTenTimesCapacityIsAnsweredOverloadedWithBoundedQueueAndMemory() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 0, brokerArguments: ["--max-queue", "\(Self.maxQueue)", "--http", brokerHTTP])
        // Capacity: 2 slots × 10 requests/s = 20 requests/s.
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: ["--service", "tally.history", "--concurrency", "2", "--simulated-latency", "100ms"])
        let client = try makeClient([cluster.endpoint], timeout: .seconds(10), retries: 0)
        #expect(await waitForServices(client, ["tally.history"]))
        for _ in 0..<5 { _ = try await client.ping() }
        let rssBefore = try #require(ProcessProbes.residentKiB(of: cluster.broker.processIdentifier))

        // 200 requests/s of 32 KiB each for 5 s: 1,000 requests, 32 MiB the broker must not keep.
        let flood = Flood(endpoint: cluster.endpoint, perRound: 20, rounds: 50, round: .milliseconds(100))
        let floodTask = Task { try await onOwnThread { try flood.run() } }
        let deepestQueue = HighWaterMark()
        let sampler = Task {
            while !Task.isCancelled {
                if let metrics = await ProcessProbes.metrics(at: brokerHTTP) {
                    let queued = Int(
                        ProcessProbes.sample(
                            #"tally_broker_queued_requests{service="tally.history"}"#, in: metrics))
                    deepestQueue.observe(queued)
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        let (ledger, overloadedSample) = try await floodTask.value
        sampler.cancel()
        await sampler.value
        let rssAfter = try #require(ProcessProbes.residentKiB(of: cluster.broker.processIdentifier))
        print(
            "overload: \(ledger); deepest queue seen \(deepestQueue.value) "
                + "(limit \(Self.maxQueue)); broker VmRSS \(rssBefore) KiB before, \(rssAfter) KiB after")

        #expect(ledger.unanswered == 0 && ledger.duplicates == 0 && ledger.strangers == 0, "\(ledger)")
        #expect(Set(ledger.outcomes.keys).isSubset(of: ["ok", "overloaded"]), "\(ledger)")
        #expect(ledger.outcomes["overloaded", default: 0] > ledger.sent / 2, "most of the flood is refused: \(ledger)")
        #expect(ledger.outcomes["ok", default: 0] >= Self.maxQueue, "the queue kept being served: \(ledger)")
        #expect(deepestQueue.value <= Self.maxQueue)
        let body = String(decoding: overloadedSample, as: UTF8.self)
        #expect(body.contains(#""retry_after_ms""#) && body.contains(#""service":"tally.history""#), "\(body)")
        // Under AddressSanitizer (scripts/sanitize) freed memory sits in its quarantine: RSS says nothing there.
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
            #expect(rssAfter - rssBefore < 24 << 10, "the broker did not keep the flood: +\(rssAfter - rssBefore) KiB")
        }

        // The flood is over: every request is served again.
        for _ in 0..<20 { _ = try await client.ping() }
        #expect(cluster.broker.isRunning && worker.isRunning)
        await client.stop()
        worker.terminate()
        await worker.waitForExit()
        await cluster.stop()
    }
}

extension OverloadTests {
    /// `overloaded` says when to come back (`retry_after_ms`, 1 s by default): a retrying client waits that long
    /// rather than its 100 ms back-off, and so gets through once the queue has drained instead of hammering it.
    @Test func aRetryingClientWaitsTheRetryAfterTheBrokerAsksFor() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 0, brokerArguments: ["--max-queue", "1", "--http", brokerHTTP])
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: ["--service", "tally.history", "--concurrency", "1", "--simulated-latency", "400ms"])
        let client = try makeClient([cluster.endpoint], timeout: .seconds(6), retries: 1)
        #expect(await waitForServices(client, ["tally.history"]))

        // One request runs, one waits in the queue, the third is refused and retried: each sent once the broker
        // holds the one before, as the broker's gauges say.
        func holds(_ gauge: String) async -> Bool {
            ProcessProbes.total(gauge, in: await ProcessProbes.metrics(at: brokerHTTP) ?? "") >= 1
        }
        let clock = ContinuousClock()
        let started = clock.now
        let outcomes = await withTaskGroup(of: (Int, Result<Duration, TallyClientError>).self) { group in
            for index in 0..<3 {
                if index == 1 { _ = await eventually { await holds("tally_broker_in_flight_requests") } }
                if index == 2 { _ = await eventually { await holds("tally_broker_queued_requests") } }
                group.addTask {
                    do throws(TallyClientError) {
                        _ = try await client.ping()
                        return (index, .success(clock.now - started))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for index in 0..<2 {
            #expect((try? outcomes[index]?.get()) != nil, "request \(index): \(String(describing: outcomes[index]))")
        }
        let third = try #require(outcomes[2]).get()
        #expect(third >= .seconds(1), "the refused request came back after retry_after_ms, not sooner: \(third)")
        await client.stop()
        worker.terminate()
        await worker.waitForExit()
        await cluster.stop()
    }
}

/// An open-loop flood from one raw DEALER: `perRound` padded pings every `round`, whatever the answers, then
/// waits for every answer. Returns the ledger and one `overloaded` body.
struct Flood: Sendable {
    var endpoint: String
    var perRound: Int
    var rounds: Int
    var round: Duration
    var padding = 32 << 10

    func run() throws -> (AnswerLedger, [UInt8]) {
        let raw = try RawMDPClient(context: try Context(), endpoint: endpoint, receiveTimeout: .milliseconds(10))
        let pad = String(repeating: "x", count: padding)
        var ledger = AnswerLedger()
        var sentIDs = Set<String>()
        var overloaded: [UInt8] = []
        func take(_ frames: [Frame]) {
            let reply = RawReply(frames: frames)
            ledger.record(reply, sentIDs: sentIDs)
            if reply.errorCode == "overloaded", overloaded.isEmpty { overloaded = reply.body }
        }
        let clock = ContinuousClock()
        var next = clock.now
        for _ in 0..<rounds {
            for _ in 0..<perRound {
                let id = "flood-\(ledger.sent)"
                try raw.request(
                    service: "tally.history",
                    body: #"{"version":1,"id":"\#(id)","method":"system.ping","padding":"\#(pad)"}"#)
                sentIDs.insert(id)
                ledger.sent += 1
            }
            next += round
            while clock.now < next {
                if let frames = try raw.receive() { take(frames) }
            }
        }
        let giveUp = clock.now + .seconds(60)
        while ledger.unanswered > 0, clock.now < giveUp {
            if let frames = try raw.receive() { take(frames) }
        }
        return (ledger, overloaded)
    }
}

/// The largest value observed, from any task.
final class HighWaterMark: Sendable {
    private let highest = Mutex(0)

    func observe(_ value: Int) { highest.withLock { $0 = max($0, value) } }

    var value: Int { highest.withLock { $0 } }
}
