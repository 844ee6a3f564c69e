import Foundation
import Logging
import Majordomo
import ZeroMQ

/// Configurations for broker, workers and clients in the test process. Heartbeats stay at their defaults (2.5 s × 3):
/// these threads share two cores with every other test, and a sub-second liveness would take a thread that was
/// merely descheduled for dead. Nothing here is about liveness: the broker learns of a stopped worker from its
/// DISCONNECT, and a worker whose broker restarts reconnects on the broker's DISCONNECT to its first heartbeat
/// (liveness is tested on a hand-advanced clock in `BrokerStateMachineTests`, and end to end in `LivenessTests`).
enum InProcess {
    static let broker: BrokerConfiguration = {
        var configuration = BrokerConfiguration()
        configuration.queueTimeout = .seconds(5)
        return configuration
    }()

    /// `concurrency` connections per service, each taking one request at a time (as plain MDP/0.1), unless
    /// `credit` says how many each takes.
    static func worker(
        _ endpoints: [String], services: [String] = ["echo"], concurrency: Int = 2, credit: Int = 1
    ) -> WorkerConfiguration {
        var configuration = WorkerConfiguration(brokers: endpoints, services: services)
        configuration.connections = concurrency
        configuration.concurrency = concurrency * credit
        configuration.reconnectDelay = .milliseconds(100)
        return configuration
    }

    /// How long a test's request may wait for its echo: a guard against a hang, not a measure. The echo handler runs
    /// on the cooperative pool, which the CPU-bound unit tests beside it can hold for 5 s (10 s beside a busy core)
    /// while the suite starts; 10 s was missed so, once in a few busy runs.
    static let replyTimeout: Duration = .seconds(30)

    static let logger: Logger = {
        var logger = Logger(label: "test")
        logger.logLevel = ProcessInfo.processInfo.environment["TEST_LOG"] != nil ? .debug : .critical
        return logger
    }()
}

/// Echo handler: replies with the request body, tagged with the worker's name.
func echoWorker(
    _ name: String, endpoints: [String], concurrency: Int = 2, delay: Duration = .zero, liveness: Int = 3
) throws -> MajordomoWorker {
    var configuration = InProcess.worker(endpoints, concurrency: concurrency)
    configuration.heartbeatLiveness = liveness
    let worker = try MajordomoWorker(configuration: configuration, logger: InProcess.logger) { request in
        if delay > .zero { try? await Task.sleep(for: delay) }
        return request.body + [Frame(name)]
    }
    try worker.start()
    return worker
}

/// A client whose correlation key is the first body frame.
func echoClient(_ endpoints: [String]) throws -> MajordomoClient {
    let client = try MajordomoClient(brokers: endpoints, logger: InProcess.logger) { reply in reply.body.first?.text }
    try client.start()
    return client
}

func startBroker(
    _ endpoint: String = "tcp://127.0.0.1:0", configuration: BrokerConfiguration = InProcess.broker
) throws -> (Broker, String) {
    let broker = try Broker(configuration: configuration, endpoints: [endpoint], logger: InProcess.logger)
    return (broker, try broker.start()[0])
}

/// The brokers' connection statuses of the timeout `operation` ends with, or `nil` when it ends otherwise.
func timeoutStatuses(_ operation: () async throws -> Void) async -> [BrokerConnection.Status]? {
    do {
        try await operation()
    } catch let error as MajordomoClientError {
        if case .timeout(_, let brokers) = error { return brokers.map(\.status) }
    } catch {}
    return nil
}
