import Logging
import Majordomo
import ServiceLifecycle
import TallyProtocol
import Tracing
import ZeroMQ

/// Tally's worker as a swift-service-lifecycle service: each request body goes through the `RequestDispatcher`,
/// whose answer (a result or an error, never nothing) becomes the reply body. Made from its configuration, started
/// by `run()` (or earlier by `start()`), drained on graceful shutdown (no new requests; those in progress get
/// `gracePeriod` to finish) and stopped at once on cancellation: the shape of `BrokerService` and `TallyClient`.
package final class WorkerService: Service, Sendable {
    package let worker: MajordomoWorker
    package let gracePeriod: Duration

    /// - Parameters:
    ///   - configuration: brokers, services, concurrency and heartbeats.
    ///   - dispatcher: the methods to serve.
    ///   - gracePeriod: how long a graceful shutdown waits for requests in progress.
    ///   - simulatedLatency: a pause before every request, for fault drills (a worker that holds requests long
    ///     enough to be killed mid-request, deadlines that pass while running). Zero in production.
    package init(
        configuration: WorkerConfiguration,
        dispatcher: RequestDispatcher,
        limits: TransportLimits = TransportLimits(),
        gracePeriod: Duration = .seconds(10),
        simulatedLatency: Duration = .zero,
        metrics: WorkerMetrics? = nil,
        socketSetup: SocketSetup? = nil,
        tracer: (any Tracer)? = nil,
        logger: Logger
    ) throws(ZMQError) {
        self.gracePeriod = gracePeriod
        let answer = Self.handler(dispatcher: dispatcher, metrics: metrics, tracer: tracer, logger: logger)
        // Every method is pure CPU work of at most a few milliseconds, so it runs on the I/O thread that received
        // it: no thread hand-off per request. A simulated latency sleeps, which must not stall that thread's
        // other connections and heartbeats, so drills compute as tasks instead.
        let computation: RequestComputation =
            simulatedLatency > .zero
            ? .onTaskPool { request in
                try? await Task.sleep(for: simulatedLatency)
                return answer(request)
            }
            : .onIOThread(answer)
        self.worker = try MajordomoWorker(
            configuration: configuration, limits: limits, socketSetup: socketSetup, logger: logger,
            computation: computation)
    }

    /// Adapts the dispatcher to MDP: the body must be exactly one frame (the JSON document).
    /// - Parameter tracer: records `tally.worker.dispatch` and `tally.worker.compute` for each traced request
    ///   (`WorkerSpans`); `nil`: none.
    package static func handler(
        dispatcher: RequestDispatcher, metrics: WorkerMetrics? = nil, tracer: (any Tracer)? = nil, logger: Logger
    ) -> @Sendable (WorkerRequest) -> [Frame] {
        let spans = tracer.map(WorkerSpans.init)
        let cpuSampler = metrics.map { _ in DispatchCPUSampler() }
        return { request in
            let clock = ContinuousClock()
            let start = clock.now
            guard request.body.count == 1 else {
                let id = request.body.first.flatMap { frame in frame.withUnsafeBytes { EnvelopeScanner.id(in: $0) } }
                let error = TallyError(
                    .invalidRequest,
                    "the request body must be exactly one frame holding the JSON envelope (got \(request.body.count))",
                    details: ErrorDetails(field: "body"))
                metrics?.record(
                    service: request.service, method: nil, errorCode: error.code, duration: clock.now - start)
                return [Frame(ErrorResponse.encode(id: id, error))]
            }
            let cpuStart = cpuSampler?.shouldSample() == true ? DispatchCPUSampler.threadCPUTime() : nil
            let response = dispatcher.respond(
                to: request.body[0].bytes, service: request.service, connection: request.connection, logger: logger)
            if let cpuStart {
                metrics?.recordCPU(
                    service: request.service, method: response.method,
                    cpu: DispatchCPUSampler.threadCPUTime() - cpuStart)
            }
            let end = clock.now
            let duration = end - start
            spans?.record(response, service: request.service, started: start, ended: end)
            metrics?.record(
                service: request.service, method: response.method, errorCode: response.errorCode,
                computed: response.computed, duration: duration)
            log(response, service: request.service, duration: duration, logger: logger)
            return [Frame(response.bytes)]
        }
    }

    /// One line per request: at debug level normally, at error level for `internal` (a fault of Tally's own).
    /// With the request's `trace_id` and `span_id` when it carried a valid trace.
    private static func log(_ response: ResponseBody, service: String, duration: Duration, logger: Logger) {
        let level: Logger.Level = response.errorCode == .internal ? .error : .debug
        guard logger.logLevel <= level else { return }
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        var metadata: Logger.Metadata = [
            "tally.request.id": "\(response.requestID ?? "-")", "tally.method": "\(response.method ?? "-")",
            "mdp.service": "\(service)", "tally.outcome": "\(response.errorCode?.rawValue ?? "result")",
            "tally.duration_us": "\(micros)",
        ]
        if let trace = response.trace?.parent {
            metadata["trace_id"] = "\(trace.traceID)"
            metadata["span_id"] = "\(trace.parentID)"
        }
        logger.log(level: level, "request answered", metadata: metadata)
    }

    /// Starts the worker's I/O threads; `run()` does it too. Starting twice does nothing.
    /// - Throws: `ZMQError` for a worker that was stopped.
    package func start() throws(ZMQError) {
        try worker.start()
    }

    package func run() async throws {
        try start()
        await worker.run(until: gracefulShutdown, gracePeriod: gracePeriod)
    }
}
