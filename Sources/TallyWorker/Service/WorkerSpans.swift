import TallyProtocol
import TallyTracing
import Tracing

/// The worker's spans for a traced request, children of its `traceparent`: `tally.worker.dispatch` (parse, envelope,
/// params, deadline check) and `tally.worker.compute` (the method itself, and encoding its answer). Made after the
/// answer, from monotonic times placed back from that moment, so an untraced request pays nothing.
struct WorkerSpans: Sendable {
    let tracer: any Tracer

    /// - Parameters:
    ///   - response: the answer, with the request's trace and when its computation started.
    ///   - service: the MDP service it came through.
    ///   - started: when the worker took the request.
    ///   - ended: when its answer was ready.
    func record(
        _ response: ResponseBody, service: String, started: ContinuousClock.Instant, ended: ContinuousClock.Instant
    ) {
        guard let trace = response.trace else { return }
        let now = DefaultTracerClock.now
        let context = tracer.context(continuing: trace)
        let computeStarted = response.computeStartedAt ?? ended
        let dispatch = tracer.startSpan(
            "tally.worker.dispatch", context: context, ofKind: .server, at: .instant(ended - started, before: now))
        describe(dispatch, response, service: service)
        dispatch.end(at: .instant(ended - computeStarted, before: now))
        guard response.computeStartedAt != nil else { return }
        let compute = tracer.startSpan(
            "tally.worker.compute", context: context, ofKind: .internal,
            at: .instant(ended - computeStarted, before: now))
        describe(compute, response, service: service)
        compute.end(at: now)
    }

    private func describe(_ span: some Span, _ response: ResponseBody, service: String) {
        guard span.isRecording else { return }
        span.updateAttributes { attributes in
            attributes["rpc.system"] = "tally"
            attributes["rpc.service"] = service
            attributes["rpc.method"] = response.method
            attributes["tally.request.id"] = response.requestID
            attributes["tally.outcome"] = response.errorCode?.rawValue ?? "result"
        }
        if let code = response.errorCode {
            span.setStatus(SpanStatus(code: .error, message: code.rawValue))
        }
    }
}
