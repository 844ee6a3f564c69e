import Foundation
import Logging
import Majordomo
import ServiceLifecycle
import Tracing
import ZeroMQ

/// Tally's broker as a swift-service-lifecycle service: made from its configuration, started by `run()` (or
/// earlier by `start()`, to learn the bound endpoints before the service group runs), drained on graceful shutdown
/// (SIGTERM/SIGINT: no new requests, queued and running ones get `gracePeriod` to finish, the rest are answered)
/// and stopped at once on cancellation. `WorkerService` and `TallyClient` have the same shape.
package final class BrokerService: Service, Sendable {
    package let broker: Broker
    package let gracePeriod: Duration

    /// - Parameters:
    ///   - configuration: timing and bounds.
    ///   - endpoints: where to bind.
    ///   - security: CURVE with a ZAP allow-list; `nil` for plaintext.
    ///   - gracePeriod: how long a graceful shutdown lets queued and running requests finish.
    ///   - transportThreads: libzmq I/O threads for the broker's connections (the TCP work: every byte read and
    ///     written, CURVE), each connection on one of them; `nil` for one per 4 processor cores. The broker's loop is
    ///     one thread whatever this says: past what that thread forwards, a host runs more brokers (docs/deploying.md,
    ///     "How many brokers and workers").
    ///   - observer: called on the I/O thread for every event (metrics).
    ///   - tracer: records a `tally.broker.queue` span for each traced request (`BrokerSpans`); `nil`: none, and
    ///     no trace is read per request unless the log level is `trace`.
    package init(
        configuration: BrokerConfiguration = BrokerConfiguration(),
        endpoints: [String],
        security: BrokerSecurity? = nil,
        gracePeriod: Duration = .seconds(10),
        transportThreads: Int? = nil,
        observer: (@Sendable (BrokerEvent) -> Void)? = nil,
        tracer: (any Tracer)? = nil,
        logger: Logger
    ) throws(ZMQError) {
        var traceObserver: (@Sendable (BrokerEvent, RequestTrace) -> Void)?
        if let tracer {
            let spans = BrokerSpans(tracer: tracer)
            traceObserver = { event, trace in spans.record(event, trace) }
        }
        self.broker = try Broker(
            configuration: configuration, endpoints: endpoints,
            envelope: TallyEnvelope(tracesEveryRequest: tracer != nil || logger.logLevel <= .trace),
            context: Context(ioThreads: Int32(transportThreads ?? Self.defaultTransportThreads)),
            security: security, observer: observer, traceObserver: traceObserver, logger: logger)
        self.gracePeriod = gracePeriod
    }

    /// One libzmq I/O thread per 4 processor cores, at least one: a large request costs the I/O thread several times
    /// what it costs the broker's loop (Benchmarks/README.md), so on a large host one I/O thread would cap the broker
    /// first.
    package static var defaultTransportThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount / 4) }

    /// Binds and starts the broker's I/O thread; `run()` does it too. Starting twice does nothing.
    /// - Returns: the bound endpoints, ports resolved.
    /// - Throws: `ZMQError` when a bind fails, or for a broker that was stopped.
    @discardableResult
    package func start() throws(ZMQError) -> [String] {
        try broker.start()
    }

    package func run() async throws {
        try start()
        await broker.run(until: gracefulShutdown, gracePeriod: gracePeriod)
    }
}
