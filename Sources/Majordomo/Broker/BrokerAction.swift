import ZeroMQ

/// What the broker's socket loop must do after the state machine handled an input.
public enum BrokerAction: Sendable, Hashable {
    /// Send these frames on the ROUTER socket (the first frame is the peer's routing id).
    case send([Frame])
    /// Something worth logging or counting happened.
    case event(BrokerEvent)
}

/// Observable broker events, for logs and metrics. The events about one request carry its trace
/// (`ApplicationEnvelope.trace(ofRequest:)`), so that their log lines name it.
public enum BrokerEvent: Sendable, Hashable {
    case workerReady(worker: Frame, service: String)
    case workerExpired(worker: Frame, service: String)
    case workerDisconnected(worker: Frame, service: String)
    /// A worker held a request past the request timeout: the request was answered and the worker disconnected.
    case workerTimedOut(worker: Frame, service: String, held: Duration, trace: RequestTrace? = nil)
    /// A worker's request went back to the queue because the worker was lost (vanished or misbehaved); the
    /// dispatch counts against `maxAttempts`.
    case requestRequeued(service: String, attempts: Int, trace: RequestTrace? = nil)
    /// A request went back to the queue because its worker said goodbye (DISCONNECT) before it was computed; the
    /// dispatch is not counted.
    case requestReturned(service: String, trace: RequestTrace? = nil)
    /// A request lost its worker again while it was the only request of that worker process: it is answered
    /// (`BrokerFailure.workerDied`) instead of killing more workers. `request` is the application's summary.
    case requestPoisoned(service: String, request: String, trace: RequestTrace? = nil)
    /// A reply reached its client; `latency` counts from the broker receiving the request, `queued` from then to
    /// the last dispatch. `trace` only when the envelope `tracesEveryRequest`.
    case replyDelivered(
        service: String, latency: Duration, attempts: Int, queued: Duration = .zero, trace: RequestTrace? = nil)
    /// The broker answered a request itself.
    case requestFailed(service: String, failure: BrokerFailure, trace: RequestTrace? = nil)
    /// A reply arrived from a worker the broker does not know (forgotten after it expired or timed out).
    case replyDropped(worker: Frame, reason: String)
    /// A registered worker's reply answered no request it holds, or carried another request's id: it was
    /// delivered to nobody, and the worker was disconnected (its requests re-queued).
    case replyRefused(worker: Frame, service: String, reason: ReplyRefusal)
    /// A peer broke the protocol; the message was dropped (and a worker disconnected).
    case protocolViolation(peer: Frame, reason: String)
    /// An MMI query was answered.
    case managementQuery(service: String, answer: String)
}
