import Logging
import Synchronization
import TallyClient
import TallyJSONCoding
import TallyProtocol

/// Tally in process, for a backend's own tests: the real `TallyClient` — its ids, deadlines, retries, decoding and
/// errors — against handlers the test gives, with no broker, worker or socket.
///
/// ```swift
/// let tally = FakeTally()
/// tally.answer(StreakSummary.self) { params in
///     StreakSummary.Result(status: .goalTrackingOff, asOf: params.time.today)
/// }
/// let client = tally.client()
/// let summary = try await client.streakSummary(params)   // your code under test makes this call
/// #expect(tally.requests.map(\.method) == ["streak.summary"])
/// ```
///
/// Requests are read as a worker reads them: an envelope or params that do not decode into the method's types are
/// answered `invalid_params` (or `invalid_request`, `malformed_json`, …) naming the field, as Tally would; a
/// deadline that has passed is answered `deadline_exceeded`. A handler answers with a result; it throws a
/// `TallyError` to answer with that error (`TallyError(.overloaded, "busy", details: …)`), or `FakeTally.NoAnswer`
/// for a call that gets no answer (the client's attempt times out, and it retries as it would). `system.ping` and
/// `system.describe` are answered by the fake itself; a method with no handler, or sent to a service that does not
/// serve it, is answered `unknown_method`, as a worker answers a method it does not compute. MMI
/// `isServiceAvailable` says `true` for a service with a handler.
public final class FakeTally: Sendable {
    /// What a handler throws for a call that gets no answer: the client's attempt times out.
    public struct NoAnswer: Error, Sendable {
        /// The error to throw.
        public init() {}
    }

    /// A request the fake received, as it was sent.
    public struct Request: Sendable, Hashable {
        /// The method, e.g. `streak.summary`.
        public let method: String
        /// The MDP service it was sent to.
        public let service: String
        /// The request's `id`.
        public let id: String
        /// The deadline it carried.
        public let deadline: Timestamp?
        /// The trace context it carried.
        public let trace: TraceContext?
        /// The whole request envelope's JSON text.
        public let body: [UInt8]
    }

    /// Reads a request's params, computes and encodes the whole response to request `id`.
    typealias Handler = @Sendable (_ request: ParsedJSON, _ id: String) async throws -> [UInt8]

    private struct State {
        var handlers: [String: Handler] = [:]
        var requests: [Request] = []
    }

    private let state = Mutex(State())

    /// A fake with no handlers: every method is `unknown_method` until `answer(_:with:)` gives it one.
    public init() {}

    /// Answers `method` with `handler` from now on (replacing an earlier handler of it).
    public func answer<M: TallyMethod>(
        _ method: M.Type, with handler: @escaping @Sendable (M.Params) async throws -> M.Result
    ) {
        let handle: Handler = { request, id in
            let params: M.Params
            do {
                params = try request.decode(M.Params.self, member: RequestHead.CodingKeys.params.rawValue)
            } catch let error as JSONDecodingError {
                throw TallyError(decoding: error)
            }
            return try Self.success(id: id, try await handler(params))
        }
        state.withLock { $0.handlers[M.name] = handle }
    }

    /// Every request received so far, oldest first.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// The params of every request of `method` received so far, oldest first.
    public func params<M: TallyMethod>(of method: M.Type) -> [M.Params] {
        requests.filter { $0.method == M.name }.compactMap { request in
            try? ParsedJSON(parsing: request.body).decode(M.Params.self, member: "params")
        }
    }

    /// A running client of this fake: the real client over an in-process transport. There is nothing to stop: the
    /// fake holds no thread or socket, and the client ends when it is dropped.
    public func client(
        configure: (inout TallyClientConfiguration) -> Void = { _ in }, logger: Logger = Logger(label: "tally.fake")
    ) -> TallyClient {
        var configuration = TallyClientConfiguration(brokers: ["inproc://fake-tally"])
        configure(&configuration)
        let client = TallyClient(configuration: configuration, logger: logger, transport: FakeTransport(fake: self))
        try? client.start()
        return client
    }

    /// Whether a handler answers a method of `service`.
    func serves(_ service: String) -> Bool {
        state.withLock { state in
            state.handlers.keys.contains { name in
                TallyMethods.v1.first { $0.name == name }?.service.rawValue == service
            }
        }
    }

    /// Answers one request body sent to `service`, as a worker would; `nil` for no answer.
    func respond(to body: [UInt8], service: String) async -> [UInt8]? {
        let request: ParsedJSON
        do {
            request = try ParsedJSON(parsing: body)
        } catch {
            return Self.failure(id: nil, TallyError(decoding: error))
        }
        let head: RequestHead
        do {
            head = try request.decode(RequestHead.self)
        } catch let failure as RequestFailure {
            return Self.failure(id: failure.id, failure.error)
        } catch {
            return Self.failure(id: nil, TallyError(.invalidRequest, "the envelope could not be read"))
        }
        let handler = state.withLock { state -> Handler? in
            state.requests.append(
                Request(
                    method: head.method, service: service, id: head.id, deadline: head.deadline, trace: head.trace,
                    body: body))
            return state.handlers[head.method]
        }
        if let deadline = head.deadline, deadline.instant <= Instant.now {
            return Self.failure(
                id: head.id, TallyError(.deadlineExceeded, "the deadline \(deadline) passed before the request came"))
        }
        // `system.*` on every service; a domain method on its own.
        let servedHere =
            TallyMethods.v1.first { $0.name == head.method }.map { $0.service.isAnswered(on: service) } ?? true
        guard let handler = servedHere ? handler ?? systemHandler(head.method, service: service) : nil else {
            // What a worker of `service` answers for a method it does not compute: with the fake, one it has no
            // handler for (non-retryable, so a test that forgot one fails at once, saying so).
            let missing =
                TallyMethods.v1.contains { $0.name == head.method } && servedHere
                ? ": FakeTally has no handler for it; give it one with answer(_:with:)" : ""
            return Self.failure(
                id: head.id,
                TallyError(.unknownMethod, "\(service) has no method '\(head.method.prefix(100))'\(missing)"))
        }
        do {
            return try await handler(request, head.id)
        } catch let error as TallyError {
            return Self.failure(id: head.id, error)
        } catch is NoAnswer {
            return nil
        } catch {
            return Self.failure(id: head.id, TallyError(.internal, "the handler of \(head.method) threw: \(error)"))
        }
    }

    /// `system.ping` and `system.describe`, answered by the fake on every service.
    private func systemHandler(_ method: String, service: String) -> Handler? {
        switch method {
        case SystemPing.name:
            let result = SystemPing.Result(
                serverVersion: TallyBuild.version, protocolVersions: ProtocolVersion.supported, uptimeSeconds: 0,
                service: service, worker: "fake-tally", connection: 0)
            return { _, id in try Self.success(id: id, result) }
        case SystemDescribe.name:
            let names = state.withLock { Array($0.handlers.keys) }
            let methods =
                TallyMethods.v1.filter { method in
                    names.contains(method.name) && method.service.rawValue == service
                }.map { SystemDescribe.Method($0) } + [
                    SystemDescribe.Method(SystemPing.self), SystemDescribe.Method(SystemDescribe.self),
                ]
            let result = SystemDescribe.Result(
                service: service, methods: methods.sorted { $0.name < $1.name },
                protocolVersions: ProtocolVersion.supported, requestSchema: ProtocolSchema.request,
                responseSchema: ProtocolSchema.response, serverVersion: TallyBuild.version, worker: "fake-tally")
            return { _, id in try Self.success(id: id, result) }
        default:
            return nil
        }
    }

    static func encode<Result: Codable & Sendable>(_ envelope: ResponseEnvelope<Result>) throws -> [UInt8] {
        try TallyJSON.resultEncoder().encodeToBytes(envelope)
    }

    /// A success response to request `id`.
    static func success<Result: Codable & Sendable>(id: String, _ result: Result) throws -> [UInt8] {
        try encode(ResponseEnvelope<Result>(id: id, outcome: .success(result)))
    }

    static func failure(id: String?, _ error: TallyError) -> [UInt8] {
        (try? encode(ResponseEnvelope<NoResult>(id: id, outcome: .failure(error)))) ?? []
    }
}
