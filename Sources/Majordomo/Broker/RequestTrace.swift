import Logging

/// The W3C trace a request belongs to, as the application reads it from the body
/// (`ApplicationEnvelope.trace(ofRequest:)`): what the broker's log lines and spans about that request carry.
///
/// The broker only carries it; reading and checking it is the application's business, as the body is. Its values
/// live in one shared box, so that `BrokerEvent.requestTrace` stays smaller than the events beside it: the broker copies
/// actions on its hot path, and a larger case would make every copy dearer.
package struct RequestTrace: Sendable, Hashable {
    private final class Box: Sendable {
        let traceparent: String
        let tracestate: String?
        let traceID: String
        let parentID: String
        let queued: Duration?

        init(traceparent: String, tracestate: String?, traceID: String, parentID: String, queued: Duration?) {
            self.traceparent = traceparent
            self.tracestate = tracestate
            self.traceID = traceID
            self.parentID = parentID
            self.queued = queued
        }
    }

    private let box: Box

    /// The request's `traceparent`, valid by W3C Trace Context: `00-<trace-id>-<parent-id>-<flags>`.
    package var traceparent: String { box.traceparent }
    /// Its `tracestate`, if any.
    package var tracestate: String? { box.tracestate }
    /// 32 lowercase hex digits: the whole trace.
    package var traceID: String { box.traceID }
    /// 16 lowercase hex digits: the caller's span, the one the request belongs to.
    package var parentID: String { box.parentID }

    /// For a delivered reply's request, how long it waited in the broker before its last dispatch (set by the
    /// broker, `queued(_:)`); `nil` otherwise.
    package var queued: Duration? { box.queued }

    package init(traceparent: String, tracestate: String?, traceID: String, parentID: String) {
        box = Box(traceparent: traceparent, tracestate: tracestate, traceID: traceID, parentID: parentID, queued: nil)
    }

    /// This trace, for a request that waited `queued` before its last dispatch.
    func queued(_ queued: Duration) -> RequestTrace {
        RequestTrace(
            box: Box(
                traceparent: traceparent, tracestate: tracestate, traceID: traceID, parentID: parentID, queued: queued))
    }

    private init(box: Box) {
        self.box = box
    }

    package static func == (lhs: RequestTrace, rhs: RequestTrace) -> Bool {
        lhs.box === rhs.box
            || (lhs.traceparent == rhs.traceparent && lhs.tracestate == rhs.tracestate && lhs.queued == rhs.queued)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(traceparent)
        hasher.combine(tracestate)
        hasher.combine(queued)
    }

    /// `trace_id` and `span_id`, as every Tally log line about a traced request has them.
    package var logMetadata: Logger.Metadata {
        ["trace_id": "\(traceID)", "span_id": "\(parentID)"]
    }
}
