import Majordomo
import ServiceLifecycle

/// Runs a started `Broker` under swift-service-lifecycle: on graceful shutdown (SIGTERM/SIGINT) it stops taking
/// requests, lets queued and running ones finish for `gracePeriod`, answers the rest and stops; on cancellation it
/// stops at once.
public struct BrokerService: Service {
    public let broker: Broker
    public let gracePeriod: Duration

    public init(broker: Broker, gracePeriod: Duration) {
        self.broker = broker
        self.gracePeriod = gracePeriod
    }

    public func run() async throws {
        do {
            try await gracefulShutdown()
            await broker.shutdown(gracePeriod: gracePeriod)
        } catch {
            await broker.stop()
        }
    }
}
