import ZeroMQ

/// What the domain-free broker may know of the bodies it relays: the application (Tally) decides how its
/// envelope is read and how the broker answers on a worker's behalf.
///
/// The broker never parses bodies for routing. It asks for three things only: the words of its own failure
/// replies, the key that ties a reply to its request (so that a worker cannot hand one client's answer to
/// another), and a short description of a request for the rare log line that must name it.
package protocol ApplicationEnvelope: Sendable {
    /// The body of the broker's own reply to a request it cannot deliver.
    /// - Parameters:
    ///   - failure: what went wrong.
    ///   - service: the service the request was for.
    ///   - requestBody: the request's body frames, to echo an id from.
    func failureReply(for failure: BrokerFailure, service: String, requestBody: [Frame]) -> [Frame]

    /// The key a body carries to tie a reply to its request (a request id), as a slice of the body's bytes, or
    /// `nil` when it has none that can be read. Asked of every request and every reply, so it must be cheap (a
    /// slice, not a copy) and must never trap.
    ///
    /// A reply whose key differs from its request's, where both have one, is refused. An application whose
    /// honest replies may carry a key other than the request's must return `nil` for them.
    func correlationKey(of body: [Frame]) -> ArraySlice<UInt8>?

    /// What the broker reads of a worker's reply, in one pass over its head: the correlation key
    /// (`correlationKey(of:)`) and, when the reply is an error response, its code (for the console's errors by
    /// code and each worker's error count). Asked of every reply: bounded, cheap, never trapping.
    func replyHead(of body: [Frame]) -> ReplyHead

    /// A short description of a request for log lines (its id and method, say); never the body itself.
    func summary(ofRequest body: [Frame]) -> String

    /// The trace a request belongs to, for the log lines (and spans) about it; `nil` when it has none. Asked for
    /// the events about a request that went wrong or was moved (failures, re-queues, timeouts), and for each
    /// delivered reply only when `tracesEveryRequest` says so: it may scan the body, so it must be bounded and
    /// must never trap.
    func trace(ofRequest body: [Frame]) -> RequestTrace?

    /// Whether each delivered reply's event comes with its request's trace (`BrokerEvent.requestTrace`): one
    /// `trace(ofRequest:)` per request, so an application turns it on only when something reads it (per-request
    /// log lines, span export).
    var tracesEveryRequest: Bool { get }
}

/// What the broker reads of a reply's head (`ApplicationEnvelope.replyHead(of:)`), as slices of its bytes.
///
/// `@usableFromInline` with an `@inlinable` initializer: an envelope in another module makes one per reply.
@usableFromInline
package struct ReplyHead: Sendable {
    /// The key that ties the reply to its request, as `ApplicationEnvelope.correlationKey(of:)` reads it.
    @usableFromInline
    package var correlationKey: ArraySlice<UInt8>?
    /// The error code of an error response, at most `maximumCodeLength` bytes; `nil` for anything else.
    @usableFromInline
    package var errorCode: ArraySlice<UInt8>?

    /// Longest error code an envelope reports: codes are short names (`invalid_params`).
    package static let maximumCodeLength = 32

    @inlinable
    package init(correlationKey: ArraySlice<UInt8>? = nil, errorCode: ArraySlice<UInt8>? = nil) {
        self.correlationKey = correlationKey
        self.errorCode = errorCode
    }
}

extension ApplicationEnvelope {
    /// Replies read for their correlation key only: no error is ever seen.
    package func replyHead(of body: [Frame]) -> ReplyHead { ReplyHead(correlationKey: correlationKey(of: body)) }

    /// Bodies without traces: none is read.
    package func trace(ofRequest body: [Frame]) -> RequestTrace? { nil }

    package var tracesEveryRequest: Bool { false }
}

/// Bodies the broker knows nothing of: failure replies are one text frame `error: <reason>`, and replies are tied
/// to requests by dispatch token only.
package struct OpaqueEnvelope: ApplicationEnvelope {
    package init() {}

    package func failureReply(for failure: BrokerFailure, service: String, requestBody: [Frame]) -> [Frame] {
        [Frame("error: \(failure)")]
    }

    package func correlationKey(of body: [Frame]) -> ArraySlice<UInt8>? { nil }

    package func summary(ofRequest body: [Frame]) -> String { "\(body.reduce(0) { $0 + $1.count }) bytes" }
}
