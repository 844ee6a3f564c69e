import Logging
import ZeroMQ

/// The broker's log lines: one per event, with the lines a single peer can repeat at will (protocol violations,
/// dropped messages, failures answered by the broker) throttled per peer or per service by `LogThrottle`.
///
/// Per-request lines that only an operator's `--log-level debug`/`trace` turns on (deliveries, MMI queries) are
/// not throttled: they are the point of those levels.
struct BrokerEventLog {
    let logger: Logger
    private var throttle = LogThrottle()

    init(logger: Logger) {
        self.logger = logger
    }

    /// - Parameter trace: the trace of the request the event is about, if it has one: its line gets `trace_id` and
    ///   `span_id`.
    mutating func record(_ event: BrokerEvent, trace: RequestTrace? = nil, now: Duration) {
        switch event {
        case .workerReady(let worker, let service):
            throttled(
                .info, "worker ready", by: service, ["mdp.worker.id": "\(worker)", "mdp.service": "\(service)"], now)
        case .workerExpired(let worker, let service):
            throttled(
                .warning, "worker expired", by: service, ["mdp.worker.id": "\(worker)", "mdp.service": "\(service)"],
                now)
        case .workerDisconnected(let worker, let service):
            throttled(
                .info, "worker disconnected", by: service, ["mdp.worker.id": "\(worker)", "mdp.service": "\(service)"],
                now)
        case .workerTimedOut(let worker, let service, let held):
            throttled(
                .warning, "worker held a request past the request timeout; request answered, worker disconnected",
                by: service,
                traced(["mdp.worker.id": "\(worker)", "mdp.service": "\(service)", "mdp.held": "\(held)"], trace), now)
        case .requestRequeued(let service, let attempts):
            throttled(
                .warning, "request re-queued after losing its worker", by: service,
                traced(["mdp.service": "\(service)", "mdp.attempts": "\(attempts)"], trace), now)
        case .requestReturned(let service):
            logger.debug(
                "request returned by a departing worker; re-queued",
                metadata: traced(["mdp.service": "\(service)"], trace))
        case .requestPoisoned(let service, let request):
            throttled(
                .error,
                "request answered without retry: its worker died twice while computing it, the second time alone",
                by: service, traced(["mdp.service": "\(service)", "mdp.request": "\(request)"], trace), now)
        case .replyDelivered(let service, let latency, _):
            logger.trace(
                "reply delivered", metadata: traced(["mdp.service": "\(service)", "mdp.latency": "\(latency)"], trace))
        case .requestFailed(let service, let failure):
            throttled(
                .notice, "request answered by the broker", kind: "request answered by the broker: \(failure.kind)",
                by: service, traced(["mdp.service": "\(service)", "mdp.failure": "\(failure)"], trace), now)
        case .replyDropped(let worker, let reason):
            throttled(
                .notice, "reply dropped", by: "\(worker)", ["mdp.worker.id": "\(worker)", "reason": "\(reason)"], now)
        case .replyRefused(let worker, let service, let reason):
            throttled(
                .warning, "reply refused; worker disconnected", by: "\(worker)",
                ["mdp.worker.id": "\(worker)", "mdp.service": "\(service)", "reason": "\(reason)"], now)
        case .protocolViolation(let peer, let reason):
            throttled(
                .warning, "protocol violation; message dropped", by: "\(peer)",
                ["mdp.peer": "\(peer)", "reason": "\(reason)"], now)
        case .requestTrace:
            // Not a line of its own: it goes on the next one (`trace`).
            break
        case .errorReplied:
            // A worker's own answer, logged by the worker; the broker only counts it (console).
            break
        case .managementQuery(let service, let answer):
            logger.debug("mmi query", metadata: ["mdp.service": "\(service)", "mmi.answer": "\(answer)"])
        }
    }

    /// A line about the transport itself (a full peer queue, a failed send), throttled per peer.
    mutating func transport(
        _ level: Logger.Level, _ message: String, peer: Frame, error: ZMQError? = nil, now: Duration
    ) {
        var metadata: Logger.Metadata = ["mdp.peer": "\(peer)"]
        if let error { metadata["error"] = "\(error)" }
        throttled(level, message, by: "\(peer)", metadata, now)
    }

    /// A refused CURVE handshake, throttled per address.
    mutating func refusedConnection(address: String, reason: String, now: Duration) {
        throttled(
            .warning, "connection refused", by: address, ["peer.address": "\(address)", "reason": "\(reason)"], now)
    }

    /// A request's line with its trace's `trace_id` and `span_id`, when it has one.
    private func traced(_ metadata: Logger.Metadata, _ trace: RequestTrace?) -> Logger.Metadata {
        guard let trace else { return metadata }
        return metadata.merging(trace.logMetadata) { own, _ in own }
    }

    /// When `flush` next has a count to log.
    var nextFlush: Duration? { throttle.nextFlush }

    /// Logs the counts of lines held back whose interval is over.
    mutating func flush(now: Duration, all: Bool = false) {
        throttle.flush(now: now, all: all, to: logger)
    }

    private mutating func throttled(
        _ level: Logger.Level, _ message: String, kind: String? = nil, by peer: String, _ metadata: Logger.Metadata,
        _ now: Duration
    ) {
        throttle.log(level, message, kind: kind, peer: peer, metadata: metadata, now: now, to: logger)
    }
}
