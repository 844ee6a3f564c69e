import Foundation

/// A broker and workers as real processes on loopback, for end-to-end tests.
///
/// ```swift
/// try await withCluster(workers: 3) { cluster in
///     let client = try makeClient([cluster.endpoint])
///     …
/// }
/// ```
///
/// Or `TallyCluster.start` and `stop()` by hand, when a test stops or kills its processes itself. Processes are
/// killed when the cluster is let go of, whatever happens.
package final class TallyCluster: Sendable {
    /// Where the broker listens (port chosen by the kernel).
    package let endpoint: String
    package let broker: ManagedProcess
    package let workers: [ManagedProcess]

    init(endpoint: String, broker: ManagedProcess, workers: [ManagedProcess]) {
        self.endpoint = endpoint
        self.broker = broker
        self.workers = workers
    }

    /// How often broker and workers heartbeat, and after how many silent intervals each takes the other for dead.
    ///
    /// Every cluster runs on the binaries' own defaults (`production`) unless its test is about liveness: a
    /// process on a busy two-core machine is descheduled for a good fraction of a second now and then, and with
    /// sub-second liveness its peers take it for dead and answer its requests `unavailable`, which is not what
    /// such a test is about.
    package struct Heartbeats: Sendable {
        /// Broker and worker arguments, added before a test's own (which override them).
        package let brokerArguments: [String]
        package let workerArguments: [String]

        /// The binaries' defaults: a heartbeat every 2.5 s, a peer dead after 3 silent intervals (7.5 s), a worker
        /// reconnecting 1 s after it gave up on its broker. A process alive but descheduled for seconds is not
        /// taken for dead. A worker that dies is still noticed within a heartbeat interval: the broker's next
        /// heartbeat to it finds its connection gone.
        package static let production = Heartbeats(brokerArguments: [], workerArguments: [])

        /// A heartbeat every 250 ms, a peer dead after 4 silent intervals (1 s), reconnects after 250 ms: a stalled
        /// or partitioned peer is noticed within 1.25 s. A live process stalled for a whole second would be taken
        /// for dead too: a test that uses it is about liveness, and keeps its processes from being crowded out
        /// (`MultiHostTests` runs them at a higher priority).
        package static let quick = Heartbeats(
            brokerArguments: ["--heartbeat-interval", "250ms", "--heartbeat-liveness", "4"],
            workerArguments: [
                "--heartbeat-interval", "250ms", "--heartbeat-liveness", "4", "--reconnect-delay", "250ms",
            ])
    }

    /// How far a started worker must have come before `startWorker` returns.
    package enum WorkerMilestone: Sendable {
        /// It has parsed its settings and started connecting (its `serving` line).
        case started
        /// Every one of its services is registered with a broker (its `registered` line, what `/readyz` says).
        case registered

        var marker: String {
            switch self {
            case .started: "serving"
            case .registered: "tally-worker registered"
            }
        }
    }

    /// Starts a broker on a free loopback port and `workers` workers connected to it, and waits until every
    /// worker has registered each of its services with the broker.
    /// - Parameter bind: where the broker listens; a port the kernel picks unless the test restarts the broker on
    ///   the same address (`RestartablePort.endpoint()`).
    package static func start(
        workers count: Int, bind: String = "tcp://127.0.0.1:0", heartbeats: Heartbeats = .production,
        brokerArguments: [String] = [], workerArguments: [String] = [], logLevel: String = "notice"
    ) async throws -> TallyCluster {
        let broker = try await startBroker(
            bind: bind, heartbeats: heartbeats, arguments: brokerArguments, logLevel: logLevel)
        let endpoint = try await brokerEndpoint(broker)
        var workers: [ManagedProcess] = []
        for index in 0..<count {
            workers.append(
                try await startWorker(
                    endpoint: endpoint, heartbeats: heartbeats, arguments: workerArguments, name: "worker-\(index)",
                    logLevel: logLevel, waitFor: .registered))
        }
        return TallyCluster(endpoint: endpoint, broker: broker, workers: workers)
    }

    /// Starts a broker process bound to `bind` and waits for its ready line.
    package static func startBroker(
        bind: String, heartbeats: Heartbeats = .production, arguments: [String] = [], logLevel: String = "notice"
    ) async throws -> ManagedProcess {
        let broker = try ManagedProcess(
            TallyBinaries.broker, ["--bind", bind, "--log-level", logLevel] + heartbeats.brokerArguments + arguments,
            name: "broker")
        _ = try await broker.waitForLine(containing: "listening on")
        return broker
    }

    /// The endpoint a started broker printed.
    package static func brokerEndpoint(_ broker: ManagedProcess) async throws -> String {
        let line = try await broker.waitForLine(containing: "listening on")
        guard let endpoint = line.split(separator: " ").last.map(String.init) else {
            throw ProcessError("no endpoint in '\(line)'")
        }
        return endpoint
    }

    /// Starts a worker process connected to `endpoint` and waits until it reaches `milestone`: only `.started`
    /// for a worker that is not meant to reach its broker (a wrong key, a broker started later).
    package static func startWorker(
        endpoint: String, heartbeats: Heartbeats = .production, arguments: [String] = [], name: String = "worker",
        logLevel: String = "notice", environment: [String: String] = [:],
        waitFor milestone: WorkerMilestone = .registered
    ) async throws -> ManagedProcess {
        let worker = try ManagedProcess(
            TallyBinaries.worker,
            ["--broker", endpoint, "--log-level", logLevel] + heartbeats.workerArguments + arguments, name: name,
            environment: environment)
        _ = try await worker.waitForLine(containing: milestone.marker)
        return worker
    }

    /// SIGTERM to every process, workers first; waits for them to exit.
    package func stop() async {
        for worker in workers { worker.terminate() }
        for worker in workers { await worker.waitForExit() }
        broker.terminate()
        await broker.waitForExit()
    }
}

/// Runs `body` with a started cluster and stops it afterwards (workers first, gracefully), whatever `body` does.
package func withCluster<Result>(
    workers: Int, heartbeats: TallyCluster.Heartbeats = .production, brokerArguments: [String] = [],
    workerArguments: [String] = [], logLevel: String = "notice", _ body: (TallyCluster) async throws -> Result
) async throws -> Result {
    let cluster = try await TallyCluster.start(
        workers: workers, heartbeats: heartbeats, brokerArguments: brokerArguments, workerArguments: workerArguments,
        logLevel: logLevel)
    return try await released(cluster, by: { await $0.stop() }, after: body)
}
