import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import TallyCalendar
import TallyClient
import TallyJSONCoding
import TallyProtocol

/// Answers each HTTP request: the route, the API key, the body (within its limit), the call through TallyClient,
/// and the answer, with its metrics. Refusals are decided before anything reaches a broker.
struct GatewayResponder: Sendable {
    let client: TallyClient
    let configuration: GatewayConfiguration
    let methods: GatewayMethods
    let ids: RequestIDs
    let metrics: GatewayMetrics?
    let logger: Logger

    static let requestID = HTTPField.Name("Tally-Request-Id")!
    static let traceparent = HTTPField.Name("traceparent")!
    static let tracestate = HTTPField.Name("tracestate")!
    static let requestTimeout = HTTPField.Name(RequestTimeout.header)!
    static let service = HTTPField.Name(GatewayMethods.serviceHeader)!

    /// HummingbirdCore's responder: one request, one answer written.
    func respond(to request: Request, writer: consuming ResponseWriter, channel: any Channel) async throws {
        let started = ContinuousClock.now
        var request = request
        let (answer, method) = await answer(&request)
        var head = HTTPResponse(status: answer.status, headerFields: answer.headers)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = String(answer.body.count)
        if let requestID = answer.requestID { head.headerFields[Self.requestID] = requestID }
        // The caller's own `Connection: close` is said back (RFC 9112 §9.6): HummingbirdCore closes after this
        // answer either way.
        if answer.closesConnection || Self.asksForClose(request) { head.headerFields[.connection] = "close" }
        // Counted before it is written: whoever has the answer sees it counted, and a write to a caller that went
        // away does not leave the request uncounted.
        metrics?.record(method: method, status: Int(answer.status.code), duration: ContinuousClock.now - started)
        let body = request.method == .head ? ByteBuffer() : ByteBuffer(bytes: answer.body)
        try await writer.write(response: head, body: body.readableBytes == 0 ? .init() : .init(byteBuffer: body))
        // A body left unread is not read to its end for nothing: the connection stops reading and closes once the
        // answer is out.
        if answer.closesConnection { channel.close(mode: .input, promise: nil) }
    }

    /// The answer to `request`, and the method it called (for metrics).
    func answer(_ request: inout Request) async -> (GatewayAnswer, String?) {
        let route = GatewayRoute(path: request.uri.path, methods: methods)
        if route.isCall, let keys = configuration.apiKeys,
            keys.name(authorizing: request.headers[.authorization]) == nil
        {
            var answer = GatewayAnswer.error(
                TallyError(.unauthorized, "this gateway takes calls with an API key: Authorization: Bearer KEY"),
                id: nil, requestID: nil)
            answer.headers[.wwwAuthenticate] = #"Bearer realm="tally""#
            answer.closesConnection = !isDrainable(request)
            return (answer, nil)
        }
        // Compared as HTTP methods, not as the text of `Allow`: this runs for every request.
        if let allowedMethods = route.methods, !allowedMethods.contains(request.method), let allowed = route.allowed {
            var answer = GatewayAnswer.error(
                TallyError(.methodNotAllowed, "\(request.uri.path.prefix(100)) takes \(allowed) only"), id: nil,
                requestID: nil)
            answer.headers[.allow] = allowed
            answer.closesConnection = !isDrainable(request)
            return (answer, nil)
        }
        switch route {
        case .document:
            return (.success(OpenAPIDocument.bytes, requestID: nil), nil)
        case .none:
            var answer = GatewayAnswer.error(
                TallyError(
                    .notFound,
                    "no route \(request.uri.path.prefix(100)); the routes are POST /v1/{method}, POST /v1 and "
                        + "GET /openapi.json"), id: nil, requestID: nil)
            answer.closesConnection = !isDrainable(request)
            return (answer, nil)
        case .unknownMethod(let name):
            var answer = GatewayAnswer.error(methods.unknown(name), id: nil, requestID: nil)
            answer.closesConnection = !isDrainable(request)
            return (answer, nil)
        case .method(let name):
            return (await call(request: &request, method: name), name)
        case .envelope:
            return await envelope(request: &request)
        }
    }

    /// `POST /v1/{method}`.
    private func call(request: inout Request, method: String) async -> GatewayAnswer {
        let id = ids.make()
        let now = Instant.now
        let time: CallTime
        let trace: TraceHeaders?
        let service: String
        do throws(TallyError) {
            time = configuration.timeouts.time(
                asked: try configuration.timeouts.asked(request.headers[Self.requestTimeout]), now: now)
            trace = try TraceHeaders(
                traceparent: request.headers[Self.traceparent], tracestate: request.headers[Self.tracestate])
            service = try methods.service(
                methods.services[method] ?? TallyService(sendingMethod: method).rawValue, of: method,
                asked: request.headers[Self.service])
        } catch {
            var answer = GatewayAnswer.error(error, id: id, requestID: id)
            answer.closesConnection = !isDrainable(request)
            return answer
        }
        let params: [UInt8]
        switch await body(of: &request) {
        case .success(let bytes): params = bytes
        case .failure(let refusal): return refusal.answer(id: id)
        }
        switch GatewayCall.forMethod(method, service: service, params: params, trace: trace, time: time, id: id) {
        case .call(let call): return await send(call)
        case .answer(let answer): return answer
        }
    }

    /// `POST /v1`.
    private func envelope(request: inout Request) async -> (GatewayAnswer, String?) {
        let asked: Duration?
        let trace: TraceHeaders?
        do throws(TallyError) {
            asked = try configuration.timeouts.asked(request.headers[Self.requestTimeout])
            trace = try TraceHeaders(
                traceparent: request.headers[Self.traceparent], tracestate: request.headers[Self.tracestate])
        } catch {
            var answer = GatewayAnswer.error(error, id: nil, requestID: nil)
            answer.closesConnection = !isDrainable(request)
            return (answer, nil)
        }
        let envelope: [UInt8]
        switch await body(of: &request) {
        case .success(let bytes): envelope = bytes
        case .failure(let refusal): return (refusal.answer(id: nil), nil)
        }
        let call = GatewayCall.forEnvelope(
            envelope, methods: methods, service: request.headers[Self.service], trace: trace, asked: asked,
            timeouts: configuration.timeouts, now: .now, id: ids.make())
        switch call {
        case .call(let call): return (await send(call), call.method)
        case .answer(let answer): return (answer, EnvelopeScanner.method(in: envelope))
        }
    }

    /// Sends `call` and words its reply, or why it got none.
    private func send(_ call: GatewayCall) async -> GatewayAnswer {
        do throws(TallyClientError) {
            let reply = try await client.send(
                rawBody: call.body, service: call.service, timeout: call.time.duration,
                deadline: ContinuousClock.now + call.time.duration)
            return call.answer(reply)
        } catch {
            if let server = error.server { return call.answer(.server(server)) }
            switch error.code {
            case .timeout: return call.answer(.timedOut(error.message))
            case .clientStopped, .clientNotRunning, .cancelled: return call.answer(.stopping)
            default:
                logger.warning(
                    "call failed", metadata: ["tally.request.id": "\(call.wireID)", "error": "\(error)"])
                return call.answer(.other(error.message))
            }
        }
    }

    /// The whole body, if it is within the limit: one whose `Content-Length` is over it is refused before a byte
    /// of it is read, and one sent in chunks as soon as what has come is over it.
    private func body(of request: inout Request) async -> Result<[UInt8], BodyRefusalAnswer> {
        let limit = configuration.maxBodyBytes
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            return .failure(
                BodyRefusalAnswer(error: .payloadTooLarge("body", count: length, limit: limit, unit: "bytes")))
        }
        var bytes: [UInt8] = []
        do {
            for try await buffer in request.body {
                guard bytes.count + buffer.readableBytes <= limit else {
                    return .failure(
                        BodyRefusalAnswer(
                            error: TallyError(
                                .payloadTooLarge, "body has more than \(limit) bytes; the limit is \(limit)",
                                details: ErrorDetails(field: "body", problem: "more than \(limit) bytes", limit: limit))
                        ))
                }
                bytes.append(contentsOf: buffer.readableBytesView)
            }
        } catch {
            return .failure(BodyRefusalAnswer(error: TallyError(.invalidRequest, "the body could not be read")))
        }
        return .success(bytes)
    }

    /// Whether the caller asked that the connection close after this answer, as HummingbirdCore reads it (the
    /// field's whole value).
    private static func asksForClose(_ request: Request) -> Bool {
        request.headers[.connection] == "close"
    }

    /// Whether a request's body, unread, can be read to its end by the server before the next request on the
    /// connection: it has none, or a `Content-Length` within the limit.
    private func isDrainable(_ request: Request) -> Bool {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }) {
            return length <= configuration.maxBodyBytes
        }
        return request.headers[.transferEncoding] == nil
    }
}

/// A body refused: the error to answer, after which the connection closes (the rest of the body is not read).
struct BodyRefusalAnswer: Error {
    let error: TallyError

    func answer(id: String?) -> GatewayAnswer {
        var answer = GatewayAnswer.error(error, id: id, requestID: id)
        answer.closesConnection = true
        return answer
    }
}
