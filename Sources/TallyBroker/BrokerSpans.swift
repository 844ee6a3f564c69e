import Majordomo
import TallyProtocol
import TallyTracing
import Tracing

/// The broker's span for each traced request it delivers: `tally.broker.queue`, from the request's arrival to its
/// last dispatch to a worker, a child of the request's `traceparent`. Made from traced `replyDelivered` events
/// (`Broker`'s `traceObserver`) on the I/O thread after the fact, with times placed back from the moment of delivery; the tracer's exporter takes it from
/// there without blocking.
struct BrokerSpans: Sendable {
    let tracer: any Tracer

    func record(_ event: BrokerEvent, _ trace: RequestTrace) {
        guard case .replyDelivered(let service, let latency, let attempts) = event, let queued = trace.queued else {
            return
        }
        let now = DefaultTracerClock.now
        let arrived: DefaultTracerClock.Timestamp = .instant(latency, before: now)
        let dispatched: DefaultTracerClock.Timestamp = .instant(latency - queued, before: now)
        let context = tracer.context(
            continuing: TraceContext(traceparent: trace.traceparent, tracestate: trace.tracestate))
        let span = tracer.startSpan("tally.broker.queue", context: context, ofKind: .consumer, at: arrived)
        if span.isRecording {
            span.updateAttributes { attributes in
                attributes["messaging.system"] = "majordomo"
                attributes["mdp.service"] = service
                attributes["mdp.attempts"] = attempts
            }
        }
        span.end(at: dispatched)
    }
}
