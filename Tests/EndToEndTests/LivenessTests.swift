import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// Liveness end to end, at the production heartbeats (2.5 s × 3: a peer silent for 7.5 s is dead): a live process
/// is never taken for dead because it is busy, and a busy machine is what these tests run on, beside the rest of
/// the suite, as a production cluster runs beside other work. The state machine's liveness rules are tested on a
/// hand-advanced clock in `BrokerStateMachineTests`; a partition, with sub-second liveness, in `MultiHostTests`.
@Suite(.realProcesses) struct LivenessTests {
    /// How long the floods last: well past the 7.5 s a silent peer is given, so a connection whose heartbeats the
    /// flood starved would be taken for dead (before the fix that keeps them due by time, it was after 7.5 s).
    static let floodSeconds = 12

    /// A flood of `history.month` requests over three years of records (~80 KB each) keeps a worker's one I/O thread
    /// computing for 12 s, while another client pings the two services nobody floods. Their connections share that
    /// thread with the flooded one: each must still heartbeat, and be served, although the flooded connection never
    /// runs dry (before the worker's loop bounded what it reads from a connection in one turn, they starved: the
    /// broker took them for dead after 7.5 s, and the worker its broker).
    @Test func aFloodOnOneServiceCostsNoLiveWorkerItsRegistration() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 1, brokerArguments: ["--http", brokerHTTP], workerArguments: ["--io-threads", "1"])
        let client = try makeClient([cluster.endpoint], timeout: .seconds(30), retries: 0)
        #expect(await waitForServices(client))
        let registrationsBefore = await registrations(at: brokerHTTP)

        let flood = try LoadReportReader.start(
            brokers: [cluster.endpoint],
            arguments: [
                "--mix", "history.month@3y", "--in-flight", "32", "--duration", "\(Self.floodSeconds)s", "--timeout",
                "60s",
            ])
        // The quiet services, asked once a second through the flood: none waits for the flood to end. A round
        // counts when both pings were answered while the flood's client was still sending or waiting for answers;
        // a starved connection is served only once the flooded one runs dry, after the flood.
        var pings: [String: Int] = [:]
        var roundsDuringFlood = 0
        var slowest: Duration = .zero
        let clock = ContinuousClock()
        let end = clock.now + .seconds(Self.floodSeconds)
        while clock.now < end && flood.isRunning {
            var answered = 0
            for service in [TallyService.streak, .workout] {
                let start = clock.now
                do {
                    let pong = try await client.ping(service: service)
                    pings[pong.service, default: 0] += 1
                    answered += 1
                } catch {
                    pings["\(service.rawValue): \(error.code.rawValue)", default: 0] += 1
                }
                slowest = max(slowest, clock.now - start)
            }
            if answered == 2 && flood.isRunning { roundsDuringFlood += 1 }
            try await Task.sleep(for: .seconds(1))
        }
        let report = try await LoadReportReader.read(flood, timeout: .seconds(120))
        let metrics = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
        let expiries = ProcessProbes.total("tally_broker_heartbeat_expiries_total", in: metrics)
        let registrationsAfter = await registrations(at: brokerHTTP)
        let silent = cluster.workers.filter { $0.errorOutput.contains("broker silent") }.map(\.name)
        print(
            "liveness under a flood, \(Self.floodSeconds) s: \(report); pings of the quiet services \(pings), "
                + "\(roundsDuringFlood) rounds answered during it, slowest \(slowest); heartbeat expiries \(Int(expiries)), registrations "
                + "\(Int(registrationsBefore)) → \(Int(registrationsAfter)), workers that found the broker silent "
                + "\(silent)")

        #expect(report.succeeded > 0 && report.unanswered == 0 && report.errors.isEmpty, "\(report)")
        #expect(expiries == 0, "no live worker connection was taken for dead")
        #expect(registrationsAfter == registrationsBefore, "no worker connection had to register again")
        #expect(silent.isEmpty, "no worker took its busy broker for dead: \(silent)")
        #expect(pings.keys.sorted() == ["tally.streak", "tally.workout"], "every ping answered: \(pings)")
        #expect(
            roundsDuringFlood >= 2,
            "the quiet services are served during the flood: \(roundsDuringFlood) rounds, slowest ping \(slowest)")
        await client.stop()
        await cluster.stop()
    }

    /// The broker stalls as a whole (`kill -STOP`) for longer than three times its workers' liveness, then resumes:
    /// every worker gave it up, reconnected, heard nothing on the new connection either and reconnected again. Once
    /// the broker is back, each worker process is still one process to it (one identity across its reconnects,
    /// which the per-process poison accounting relies on), with its whole credit, and serves.
    ///
    /// Quick heartbeats (1 s of silence) so that the stall spans several reconnects in 4 s; what is asserted is the
    /// state after it, which no delay on a busy machine changes.
    @Test func aStalledBrokerFindsEachWorkerProcessOnceWhenItResumes() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 2, heartbeats: .quick, brokerArguments: ["--http", brokerHTTP],
            workerArguments: ["--io-threads", "2", "--concurrency", "16"])
        let client = try makeClient([cluster.endpoint], timeout: .seconds(30))
        #expect(await waitForServices(client))
        let before = await Self.scrape(brokerHTTP)
        #expect(before?.value("tally_broker_worker_processes", #"service="tally.history""#) == 2)

        cluster.broker.suspend()
        // Every worker connection (2 threads × 3 services each) is given up three times meanwhile, one line each:
        // 1 s of silence, 250 ms to reconnect.
        #expect(
            await eventually(timeout: .seconds(30)) {
                cluster.workers.allSatisfy {
                    $0.errorOutput.components(separatedBy: "broker silent").count - 1 >= 3 * 6
                }
            }, "the workers gave their silent broker up, again and again")
        cluster.broker.resume()

        // Back: two processes, four connections of credit 8 for each service, and nothing else registered.
        let settled = await eventually(timeout: .seconds(30)) {
            guard let metrics = await Self.scrape(brokerHTTP) else { return false }
            return ["tally.history", "tally.streak", "tally.workout"].allSatisfy { service in
                let label = #"service="\#(service)""#
                return metrics.value("tally_broker_worker_processes", label) == 2
                    && metrics.value("tally_broker_worker_connections", label) == 4
                    && metrics.value("tally_broker_worker_request_capacity", label) == 32
            }
        }
        let after = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
        #expect(
            settled,
            "one identity per worker process, with its credit: \(after.split(separator: "\n").filter { $0.contains("tally_broker_worker_") && !$0.hasPrefix("#") })"
        )
        for _ in 0..<8 {
            let pong = try await client.ping(service: .history)
            #expect(cluster.workers.contains { $0.processIdentifier == pid(of: pong.worker) }, "\(pong.worker)")
        }
        await client.stop()
        await cluster.stop()
    }

    /// A worker stalls as a whole (`kill -STOP`) while it holds requests, for longer than the broker's patience
    /// (quick heartbeats: 1 s), then resumes. Its kernel kept acknowledging, so its connections stayed open: the
    /// broker re-queued what it held to the other worker, told the stalled one to go (DISCONNECT), and once it
    /// resumes it registers again. A raw MDP client that counts every reply per id, with no retries of its own, gets
    /// each request answered exactly once. (Whether the resumed worker's late replies still leave before it reads
    /// the DISCONNECT is a race; `BrokerIsolationTests` has a silent worker whose late reply always arrives.)
    @Test func aStalledWorkerIsReplacedEachRequestAnsweredOnceAndItRegistersAgain() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        // 50 heartbeats of patience: the resumed worker answers what it holds before it could give its broker up.
        let workerArguments = [
            "--simulated-latency", "300ms", "--heartbeat-liveness", "50", "--io-threads", "1", "--concurrency", "4",
        ]
        let cluster = try await TallyCluster.start(
            workers: 1, heartbeats: .quick, brokerArguments: ["--http", brokerHTTP], workerArguments: workerArguments)
        let counting = try ManagedProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", MultiHostTests.countingClient.path, cluster.endpoint, "tally.history", "160", "20", "2", "40"],
            name: "counting-client")
        // Requests keep coming for 8 s, through the stall: the lone worker holds some, and still does once a second
        // one is there to take them over.
        let holding = await eventually(timeout: .seconds(20)) {
            let metrics = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
            return ProcessProbes.total("tally_broker_in_flight_requests", in: metrics) >= 2
        }
        #expect(holding, "the worker to be stalled holds requests")
        let relief = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint, heartbeats: .quick, arguments: workerArguments, name: "relief")
        let stalled = cluster.workers[0]
        stalled.suspend()
        // Its tally.history connection, which holds the requests, given up (each service's connection expires on
        // its own, and an earlier one's expiry would not have re-queued them).
        let expired = await eventually(timeout: .seconds(20)) {
            let expiries = await Self.scrape(brokerHTTP)?.value(
                "tally_broker_heartbeat_expiries_total", #"service="tally.history""#)
            return expiries ?? 0 >= 1
        }
        stalled.resume()
        #expect(expired, "the broker gave the stalled worker's tally.history connection up")
        #expect(await counting.waitForExit(timeout: .seconds(60)) == 0, "\(counting.errorOutput.suffix(1500))")
        let counted = try await counting.jsonOutput()
        #expect(counted["answered"] as? Int == 160, "every request answered: \(counted)")
        #expect((counted["duplicates"] as? [String: Int])?.isEmpty == true, "none twice: \(counted)")
        #expect((counted["errors"] as? [String: Int])?.isEmpty == true, "\(counted)")
        let registeredAgain = await eventually(timeout: .seconds(20)) {
            await Self.scrape(brokerHTTP)?.value("tally_broker_worker_processes", #"service="tally.history""#) == 2
        }
        #expect(registeredAgain, "the resumed worker registered again beside its relief")
        relief.terminate()
        _ = await relief.waitForExit()
        await cluster.stop()
    }

    /// A live client that never answers a ZMTP PING, and sends nothing for four times the broker's patience with a
    /// silent host (quick heartbeats: 750 ms without an acknowledgement): a ZMTP 3.0 stack spoken by hand over a
    /// plain TCP socket. Its kernel answers the broker's keepalive probes, so the broker keeps its connection, and
    /// its MMI query, sent after the wait on the same connection, is answered.
    @Test func aLivePeerThatNeverAnswersAPingIsNotCutWhileItIsAlive() async throws {
        try await withCluster(workers: 1, heartbeats: .quick) { cluster in
            let port = cluster.endpoint.split(separator: ":").last.map(String.init) ?? ""
            let peer = try ManagedProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "python3",
                    MultiHostTests.countingClient.deletingLastPathComponent().appendingPathComponent(
                        "zmtp30_peer.py"
                    ).path, "127.0.0.1", port, "3",
                ], name: "zmtp30-peer")
            #expect(await peer.waitForExit(timeout: .seconds(30)) == 0, "\(peer.errorOutput.suffix(1500))")
            let outcome = try await peer.jsonOutput()
            #expect(outcome["closed"] as? Bool == false, "the broker kept the connection: \(outcome)")
            #expect(outcome["answer"] as? String == "200", "and answered on it: \(outcome)")
            #expect(outcome["commands_received"] as? [String] == ["READY"], "no PING asked of it: \(outcome)")
        }
    }

    static func scrape(_ address: String) async -> PrometheusExposition? {
        await ProcessProbes.metrics(at: address).map(PrometheusExposition.init)
    }

    /// Worker connections registered with the broker so far, all services together.
    func registrations(at address: String) async -> Double {
        ProcessProbes.total(
            "tally_broker_worker_registrations_total", in: await ProcessProbes.metrics(at: address) ?? "")
    }
}
