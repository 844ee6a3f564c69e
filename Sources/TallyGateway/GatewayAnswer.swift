import HTTPTypes
import TallyProtocol

/// What the gateway answers one HTTP request with: a status, a JSON body, and the headers that say which v1 request
/// it was and when to come back.
struct GatewayAnswer: Sendable {
    var status: HTTPResponse.Status
    var body: [UInt8]
    /// The v1 id the request carried on the wire (`Tally-Request-Id`), when it got one.
    var requestID: String?
    /// Headers of its own: `Retry-After` for `overloaded`, `Allow` for `method_not_allowed`, `WWW-Authenticate`
    /// for `unauthorized`.
    var headers = HTTPFields()
    /// The request's body was not read to its end: the connection is closed after the answer rather than read on.
    var closesConnection = false

    /// A result (or any v1 body) with status 200.
    static func success(_ body: [UInt8], requestID: String?) -> Self {
        Self(status: .ok, body: body, requestID: requestID)
    }

    /// A v1 error response, `{"version":1,"id":…,"error":{…}}`, under its code's status.
    static func error(_ error: TallyError, id: String?, requestID: String?) -> Self {
        failure(error, body: ErrorResponse.encode(id: id, error), requestID: requestID)
    }

    /// An error response as it came (a broker's, a worker's), under its code's status.
    static func failure(_ error: TallyError, body: [UInt8], requestID: String?) -> Self {
        var answer = Self(status: ErrorStatus.status(of: error.code), body: body, requestID: requestID)
        if error.code == .overloaded, let milliseconds = error.details?.retryAfterMilliseconds {
            answer.headers[.retryAfter] = ErrorStatus.retryAfter(milliseconds: milliseconds)
        }
        return answer
    }
}
