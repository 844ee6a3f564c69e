import Foundation
import TallyClient
import TallyTesting
import Testing

/// Workers killed with SIGKILL, one a second, while load runs and replacements start: no request is lost, none
/// is answered twice, every failure is an explicit error.
///
/// A request whose worker is killed is retried once on a worker process of its own; if that one is killed too
/// while it computes the request (rare, but these requests take 50 ms and a worker dies every second), the broker
/// takes it for a poison request and answers `internal`. Every such answer is counted by the broker's
/// `tally_broker_poison_requests_total`, and the test checks that the two agree.
///
/// CI runs 15 s; `TALLY_SOAK_SECONDS=60 swift test --filter WorkerChurnTests` (or `scripts/soak 60`) the long one.
@Suite(.realProcesses) struct WorkerChurnTests {
    /// How long the churn lasts: `TALLY_SOAK_SECONDS`, 15 by default.
    static var soakSeconds: Int {
        ProcessInfo.processInfo.environment["TALLY_SOAK_SECONDS"].flatMap { Int($0) }.map { max(3, $0) } ?? 15
    }

    /// Worker shape for the drill: each request takes ≥ 50 ms, so a kill almost always catches some in flight.
    static let workerArguments = ["--concurrency", "2", "--simulated-latency", "50ms"]

    @Test func killNineOfARandomWorkerEverySecondUnderLoadLosesNoRequestAndAnswersNoneTwice() async throws {
        let seconds = Self.soakSeconds
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(workers: 0, brokerArguments: ["--http", brokerHTTP])
        var workers: [ManagedProcess] = []
        for index in 0..<4 {
            workers.append(
                try await TallyCluster.startWorker(
                    endpoint: cluster.endpoint, arguments: Self.workerArguments, name: "churn-\(index)"))
        }
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client))

        let load = ExactlyOnceLoad(endpoint: cluster.endpoint, inFlight: 16, duration: .seconds(seconds))
        let rawLoad = Task { try await onOwnThread { try load.run() } }
        let libraryLoad = try LoadReportReader.start(
            brokers: [cluster.endpoint],
            arguments: ["--mix", "system.ping", "--in-flight", "8", "--duration", "\(seconds)s", "--timeout", "30s"])

        var kills = 0
        let clock = ContinuousClock()
        let end = clock.now + .seconds(seconds)
        var next = clock.now + .seconds(1)
        while next < end {
            try await Task.sleep(until: next)
            next += .seconds(1)
            let victim = workers.indices.randomElement()!
            workers[victim].kill9()
            kills += 1
            // The replacement is not waited for: kills keep their one-second rhythm on a slow machine too.
            workers[victim] = try ManagedProcess(
                TallyBinaries.worker,
                ["--broker", cluster.endpoint, "--log-level", "notice"] + Self.workerArguments,
                name: "churn-\(4 + kills)")
        }

        let ledger = try await rawLoad.value
        let report = try await LoadReportReader.read(libraryLoad, timeout: .seconds(90))
        let metrics = await ProcessProbes.metrics(at: brokerHTTP) ?? ""
        let requeues = ProcessProbes.sample(#"tally_broker_requeues_total{service="tally.history"}"#, in: metrics)
        let poisoned = ProcessProbes.sample(
            #"tally_broker_poison_requests_total{service="tally.history"}"#, in: metrics)
        print(
            "worker churn, \(seconds) s, \(kills) × kill -9, \(Int(requeues)) requests re-queued, "
                + "\(Int(poisoned)) taken for poison: raw client: \(ledger); \(report)")

        #expect(kills >= seconds / 2, "the drill killed workers: \(kills)")
        #expect(requeues > 0, "kills caught requests in flight, which the broker handed to other workers")
        #expect(ledger.sent > 0 && ledger.outcomes["ok", default: 0] > 0)
        #expect(ledger.unanswered == 0, "every request answered: \(ledger)")
        #expect(ledger.duplicates == 0, "no request answered twice: \(ledger)")
        #expect(ledger.strangers == 0, "no reply to a request never sent: \(ledger)")
        #expect(
            Set(ledger.outcomes.keys).isSubset(of: ["ok", "unavailable", "internal"]),
            "failures are explicit: \(ledger)")
        #expect(report.unanswered == 0 && report.answered == report.sent, "\(report)")
        #expect(report.succeeded + report.errors.values.reduce(0, +) == report.answered, "\(report)")
        #expect(
            Set(report.errors.keys).isSubset(of: ["unavailable", "internal"]), "failures are explicit: \(report)")
        let internalAnswers = ledger.outcomes["internal", default: 0] + report.errors["internal", default: 0]
        #expect(Double(internalAnswers) <= poisoned, "every internal answer is a request the broker took for poison")

        #expect(cluster.broker.isRunning)
        _ = try await client.ping()
        await client.stop()
        for worker in workers { worker.terminate() }
        for worker in workers { await worker.waitForExit() }
        await cluster.stop()
    }
}
