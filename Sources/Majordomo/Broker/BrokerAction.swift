import ZeroMQ

/// What the broker's socket loop must do after the state machine handled an input.
package enum BrokerAction: Sendable, Hashable {
    /// Send these frames on the ROUTER socket (the first frame is the peer's routing id).
    case send([Frame])
    /// Something worth logging or counting happened.
    case event(BrokerEvent)
}

/// Observable broker events, for logs and metrics.
package enum BrokerEvent: Sendable, Hashable {
    case workerReady(worker: Frame, service: String)
    case workerExpired(worker: Frame, service: String)
    case workerDisconnected(worker: Frame, service: String)
    /// A worker held a request past the request timeout: the request was answered and the worker disconnected.
    case workerTimedOut(worker: Frame, service: String, held: Duration)
    /// A worker's request went back to the queue because the worker was lost (vanished or misbehaved); the
    /// dispatch counts against `maxAttempts`.
    case requestRequeued(service: String, attempts: Int)
    /// A request went back to the queue because its worker said goodbye (DISCONNECT) before it was computed; the
    /// dispatch is not counted.
    case requestReturned(service: String)
    /// A request lost its worker again while it was the only request of that worker process: it is answered
    /// (`BrokerFailure.workerDied`) instead of killing more workers. `request` is the application's summary.
    case requestPoisoned(service: String, request: String)
    /// A reply reached its client; `latency` counts from the broker receiving the request.
    case replyDelivered(service: String, latency: Duration, attempts: Int)
    /// The reply just delivered (`replyDelivered` comes right before it) was an error response with this code
    /// (`ReplyHead.errorCode`): the worker's own answer, not the broker's. The code is the peer's bytes, at most
    /// `ReplyHead.maximumCodeLength` of them; only error replies cost this event.
    case errorReplied(service: String, code: String)
    /// The broker answered a request itself.
    case requestFailed(service: String, failure: BrokerFailure)
    /// A reply arrived from a worker the broker does not know (forgotten after it expired or timed out).
    case replyDropped(worker: Frame, reason: String)
    /// A registered worker's reply answered no request it holds, or carried another request's id: it was
    /// delivered to nobody, and the worker was disconnected (its requests re-queued).
    case replyRefused(worker: Frame, service: String, reason: ReplyRefusal)
    /// A peer broke the protocol; the message was dropped (and a worker disconnected).
    case protocolViolation(peer: Frame, reason: String)
    /// An MMI query was answered.
    case managementQuery(service: String, answer: String)
    /// The trace of the request that the event right after it is about (`ApplicationEnvelope.trace(ofRequest:)`),
    /// with, for a delivered reply, how long the request waited before its last dispatch (`RequestTrace.queued`).
    /// Only for a request whose body has a trace, and for a delivery only when the envelope `tracesEveryRequest`:
    /// an untraced request costs no event, and the other events keep their shape (a case of its own, not a member
    /// of each: the broker copies actions on its hot path, and wider cases would make every copy dearer).
    case requestTrace(RequestTrace)
}
