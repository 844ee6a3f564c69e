import ZeroMQ

/// What the broker's socket loop must do after the state machine handled an input.
public enum BrokerAction: Sendable, Hashable {
    /// Send these frames on the ROUTER socket (the first frame is the peer's routing id).
    case send([Frame])
    /// Something worth logging or counting happened.
    case event(BrokerEvent)
}

/// Observable broker events, for logs and metrics.
public enum BrokerEvent: Sendable, Hashable {
    case workerReady(worker: Frame, service: String)
    case workerExpired(worker: Frame, service: String)
    case workerDisconnected(worker: Frame, service: String)
    /// A worker held a request past the request timeout: the request was answered and the worker disconnected.
    case workerTimedOut(worker: Frame, service: String, held: Duration)
    /// A worker's request went back to the queue because the worker was lost.
    case requestRequeued(service: String, attempts: Int)
    /// A reply reached its client; `latency` counts from the broker receiving the request.
    case replyDelivered(service: String, latency: Duration, attempts: Int)
    /// The broker answered a request itself.
    case requestFailed(service: String, failure: BrokerFailure)
    /// A reply arrived from a worker that held no request (late, duplicate, or from a forgotten worker).
    case replyDropped(worker: Frame, reason: String)
    /// A peer broke the protocol; the message was dropped (and a worker disconnected).
    case protocolViolation(peer: Frame, reason: String)
    /// An MMI query was answered.
    case managementQuery(service: String, answer: String)
}
