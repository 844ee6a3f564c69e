import Majordomo
import Testing
import ZeroMQ

/// A request's trace reaches the broker's log lines and spans as a `requestTrace` event right before the event about
/// the request, only for a request that has one, and for deliveries only when the envelope asks: untraced
/// requests get no extra event.
@Suite struct BrokerTraceTests {
    /// Bodies starting `traced` have a trace.
    struct TracingEnvelope: ApplicationEnvelope {
        var tracesEveryRequest: Bool

        func failureReply(for failure: BrokerFailure, service: String, requestBody: [Frame]) -> [Frame] {
            [Frame("error")]
        }

        func correlationKey(of body: [Frame]) -> ArraySlice<UInt8>? { nil }

        func summary(ofRequest body: [Frame]) -> String { "-" }

        func trace(ofRequest body: [Frame]) -> RequestTrace? {
            guard body.first?.text?.hasPrefix("traced") == true else { return nil }
            return BrokerTraceTests.trace
        }
    }

    static let trace = RequestTrace(
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", tracestate: nil,
        traceID: "4bf92f3577b34da6a3ce929d0e0e4736", parentID: "00f067aa0ba902b7")

    func machine(tracesEveryRequest: Bool) -> BrokerStateMachine {
        var configuration = BrokerConfiguration()
        configuration.maxQueuedPerService = 1
        return BrokerStateMachine(
            configuration: configuration, envelope: TracingEnvelope(tracesEveryRequest: tracesEveryRequest), now: .zero)
    }

    /// The `requestTrace` events with the event each precedes.
    func traced(_ actions: [BrokerAction]) -> [(RequestTrace, Duration?, BrokerEvent?)] {
        actions.indices.compactMap { index in
            guard case .event(.requestTrace(let trace)) = actions[index] else { return nil }
            let next = index + 1 < actions.count ? actions[index + 1] : nil
            guard case .event(let event)? = next else { return (trace, trace.queued, nil) }
            return (trace, trace.queued, event)
        }
    }

    @Test func aDeliveryIsTracedOnlyWhenAskedAndOnlyForATracedRequest() throws {
        for asked in [false, true] {
            var broker = machine(tracesEveryRequest: asked)
            _ = broker.received(ready("W1", credit: 2), now: .zero)
            let first = dispatches(broker.received(request("C", "traced-1"), now: .milliseconds(5)))[0]
            let second = dispatches(broker.received(request("C", "plain-2"), now: .milliseconds(5)))[0]
            let actions =
                broker.received(reply("W1", first.token, "ok"), now: .milliseconds(20))
                + broker.received(reply("W1", second.token, "ok"), now: .milliseconds(20))
            let found = traced(actions)
            if asked {
                try #require(found.count == 1)
                #expect(found[0].0.traceparent == Self.trace.traceparent)
                #expect(found[0].1 == .zero, "dispatched as it arrived")
                #expect(found[0].2 == .replyDelivered(service: "echo", latency: .milliseconds(15), attempts: 1))
            } else {
                #expect(found.isEmpty)
            }
        }
    }

    @Test func aRequestTheBrokerAnswersIsTracedAlways() throws {
        var broker = machine(tracesEveryRequest: false)
        _ = broker.received(ready("W1"), now: .zero)
        _ = broker.received(request("C", "plain-0"), now: .zero)  // fills the worker
        _ = broker.received(request("C", "plain-1"), now: .zero)  // fills the queue
        let overloaded = broker.received(request("C", "traced-2"), now: .zero)
        let found = traced(overloaded)
        try #require(found.count == 1)
        #expect(found[0].2 == .requestFailed(service: "echo", failure: .overloaded(limit: 1)))
        #expect(traced(broker.received(request("C", "plain-3"), now: .zero)).isEmpty)
    }

    @Test func aRequeuedRequestIsTraced() throws {
        var broker = machine(tracesEveryRequest: false)
        _ = broker.received(ready("W1"), now: .zero)
        _ = broker.received(request("C", "traced-1"), now: .zero)
        // The worker goes silent: its request is re-queued, with its trace.
        let expired = broker.tick(now: .seconds(60))
        #expect(traced(expired).contains { $0.2 == .requestRequeued(service: "echo", attempts: 1) })
    }
}
