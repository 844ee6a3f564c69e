import TallyCalendar
import TallyProtocol

/// One call the gateway sends through TallyClient for an HTTP request: the envelope's bytes, the service, its id on
/// the wire, its time, and how its reply becomes the HTTP answer.
struct GatewayCall: Sendable {
    /// How a reply is answered.
    enum Answering: Sendable {
        /// `POST /v1/{method}`: a result's bytes alone; an error's whole v1 response.
        case resultAlone
        /// `POST /v1`: the whole v1 response, its id given back as the caller wrote it (these bytes, escapes and
        /// all).
        case wholeResponse(callerID: [UInt8])
    }

    /// The method, when the gateway knows it (`nil` for an envelope's unknown one): for metrics.
    let method: String?
    let service: String
    let body: [UInt8]
    let wireID: String
    let time: CallTime
    let answering: Answering

    /// The HTTP answer to `reply`.
    func answer(_ reply: [UInt8]) -> GatewayAnswer {
        guard let parts = ReplyParts(reply) else {
            return .error(
                TallyError(.internal, "the reply from the broker is not a v1 response"), id: callerIDText,
                requestID: wireID)
        }
        switch (parts.outcome, answering) {
        case (.result(let result), .resultAlone):
            return .success(Array(reply[result]), requestID: wireID)
        case (.result, .wholeResponse(let callerID)):
            return .success(Self.withID(callerID, in: reply, at: parts.id), requestID: wireID)
        case (.error(let error, _), .resultAlone):
            return .failure(error, body: reply, requestID: wireID)
        case (.error(let error, _), .wholeResponse(let callerID)):
            return .failure(error, body: Self.withID(callerID, in: reply, at: parts.id), requestID: wireID)
        }
    }

    /// The id an answer the gateway words itself carries: the caller's for an envelope, else the wire id.
    var callerIDText: String {
        switch answering {
        case .resultAlone: wireID
        case .wholeResponse(let callerID): String(decoding: callerID, as: UTF8.self)
        }
    }

    /// The answer to a call that got no reply: its time ran out (`deadline_exceeded`), the gateway is stopping
    /// (`unavailable`), or TallyClient gave up on a retried `overloaded` or `unavailable` (that error, worded by
    /// `ErrorResponse` as the broker words it).
    func answer(_ failure: TallyClientFailure) -> GatewayAnswer {
        let error: TallyError
        switch failure {
        case .server(let server): error = server
        case .timedOut(let message): error = TallyError(.deadlineExceeded, message)
        case .stopping: error = TallyError(.unavailable, "the gateway is stopping")
        case .other(let message): error = TallyError(.internal, message)
        }
        guard case .wholeResponse(let callerID) = answering else {
            return .error(error, id: wireID, requestID: wireID)
        }
        let body = ErrorResponse.encode(id: wireID, error)
        return .failure(
            error, body: Self.withID(callerID, in: body, at: ReplyParts(body)?.id), requestID: wireID)
    }

    /// `reply` with the id's text at `range` replaced by `id`'s bytes.
    static func withID(_ id: [UInt8], in reply: [UInt8], at range: Range<Int>?) -> [UInt8] {
        guard let range else { return reply }
        var body = [UInt8]()
        body.reserveCapacity(reply.count - range.count + id.count)
        body.append(contentsOf: reply[..<range.lowerBound])
        body.append(contentsOf: id)
        body.append(contentsOf: reply[range.upperBound...])
        return body
    }
}

extension GatewayCall {
    /// A request turned into a call, or answered by the gateway itself (a body that is not JSON, an envelope the
    /// worker would refuse).
    enum Prepared {
        case call(GatewayCall)
        case answer(GatewayAnswer)
    }
}

/// Why a call got no reply, as the gateway answers it.
enum TallyClientFailure: Sendable {
    /// A server's error that TallyClient retried until the call's time or attempts ran out.
    case server(TallyError)
    case timedOut(String)
    case stopping
    case other(String)
}
