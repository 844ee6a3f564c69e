import Foundation

/// A broker and workers as real processes on loopback, for end-to-end tests.
///
/// ```swift
/// let cluster = try await TallyCluster.start(workers: 3)
/// let client = try cluster.client()
/// …
/// await cluster.stop()
/// ```
public final class TallyCluster: Sendable {
    /// Where the broker listens (port chosen by the kernel).
    public let endpoint: String
    public let broker: ManagedProcess
    public let workers: [ManagedProcess]

    init(endpoint: String, broker: ManagedProcess, workers: [ManagedProcess]) {
        self.endpoint = endpoint
        self.broker = broker
        self.workers = workers
    }

    /// Fast heartbeats so that failures are noticed within a second.
    public static let fastBrokerArguments = ["--heartbeat-interval", "200ms", "--heartbeat-liveness", "3"]
    public static let fastWorkerArguments = [
        "--heartbeat-interval", "200ms", "--heartbeat-liveness", "3", "--reconnect-delay", "200ms",
    ]

    /// Starts a broker on a free loopback port and `workers` workers connected to it, and waits until each worker's
    /// services are registered.
    public static func start(
        workers count: Int, brokerArguments: [String] = [], workerArguments: [String] = [], logLevel: String = "notice"
    ) async throws -> TallyCluster {
        let broker = try await startBroker(bind: "tcp://127.0.0.1:0", arguments: brokerArguments, logLevel: logLevel)
        let endpoint = try await brokerEndpoint(broker)
        var workers: [ManagedProcess] = []
        for index in 0..<count {
            workers.append(
                try await startWorker(
                    endpoint: endpoint, arguments: workerArguments, name: "worker-\(index)", logLevel: logLevel))
        }
        return TallyCluster(endpoint: endpoint, broker: broker, workers: workers)
    }

    /// Starts a broker process bound to `bind` and waits for its ready line.
    public static func startBroker(
        bind: String, arguments: [String] = [], logLevel: String = "notice"
    ) async throws -> ManagedProcess {
        let broker = try ManagedProcess(
            TallyBinaries.broker, ["--bind", bind, "--log-level", logLevel] + fastBrokerArguments + arguments,
            name: "broker")
        _ = try await broker.waitForLine(containing: "listening on")
        return broker
    }

    /// The endpoint a started broker printed.
    public static func brokerEndpoint(_ broker: ManagedProcess) async throws -> String {
        let line = try await broker.waitForLine(containing: "listening on")
        guard let endpoint = line.split(separator: " ").last.map(String.init) else {
            throw ProcessError("no endpoint in '\(line)'")
        }
        return endpoint
    }

    /// Starts a worker process connected to `endpoint` and waits for its ready line.
    public static func startWorker(
        endpoint: String, arguments: [String] = [], name: String = "worker", logLevel: String = "notice",
        environment: [String: String] = [:]
    ) async throws -> ManagedProcess {
        let worker = try ManagedProcess(
            TallyBinaries.worker, ["--broker", endpoint, "--log-level", logLevel] + fastWorkerArguments + arguments,
            name: name, environment: environment)
        _ = try await worker.waitForLine(containing: "serving")
        return worker
    }

    /// SIGTERM to every process, workers first; waits for them to exit.
    public func stop() async {
        for worker in workers { worker.terminate() }
        for worker in workers { await worker.waitForExit() }
        broker.terminate()
        await broker.waitForExit()
    }
}
