import Foundation
import Logging
import Majordomo
import ServiceLifecycle
import Synchronization
import TallyJSONCoding
import TallyProtocol
import Tracing
import ZeroMQ

/// The typed async client of Tally.
///
/// ```swift
/// try await withTallyClient(TallyClientConfiguration(brokers: ["tcp://tally:5555"])) { client in
///     let month = try await client.historyMonth(params)
/// }
/// ```
///
/// Or as one service among others, under swift-service-lifecycle: its `run()` owns the connection (an I/O thread
/// and its socket) until the group shuts down.
///
/// ```swift
/// let client = try TallyClient(configuration: configuration)
/// let group = ServiceGroup(services: [client, httpServer], gracefulShutdownSignals: [.sigterm], logger: logger)
/// ```
///
/// Many calls may be in flight at once from any tasks; each is matched to its reply by its request id. Calls that
/// time out, or that Tally answers `overloaded` or `unavailable`, are retried (every v1 method is idempotent)
/// within the call's overall timeout or deadline. A call made before the client runs waits for it, within that
/// same time (then `client_not_running`), so tasks may start calling while a service group is still starting; a
/// call after the client stopped fails at once (`client_stopped`).
public final class TallyClient: Service, Sendable {
    /// The configuration the client was made with, checked.
    public let configuration: TallyClientConfiguration
    let transport: any TallyTransport
    let logger: Logger
    let idPrefix: String
    let nextID = Atomic<UInt64>(0)
    let gate = RunGate()
    /// How a back-off waits: `Task.sleep`, or a recorder in `TallyClientTests`.
    let pause: @Sendable (Duration) async throws -> Void

    /// Makes a client; it connects when it runs (`run()`, `withTallyClient`).
    /// - Throws: `TallyClientError` (`invalid_configuration`) when there is no broker, an endpoint is not a ZeroMQ
    ///   endpoint, a setting cannot work, or the transport cannot be set up.
    public convenience init(
        configuration: TallyClientConfiguration, logger: Logger = Logger(label: "tally.client")
    ) throws(TallyClientError) {
        try configuration.check()
        self.init(
            configuration: configuration, logger: logger,
            transport: try MajordomoTransport(configuration: configuration, logger: logger))
    }

    /// A client over another transport: `FakeTally`'s, or a scripted one in tests.
    package init(
        configuration: TallyClientConfiguration, logger: Logger, transport: any TallyTransport,
        pause: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.configuration = configuration
        self.logger = logger
        self.transport = transport
        self.pause = pause
        self.idPrefix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }

    /// A client dropped without stopping lets its connection go too.
    deinit {
        gate.close()
        transport.requestStop()
    }

    /// Connects and serves calls until the service group shuts down gracefully (or the task is cancelled), then
    /// fails the calls still waiting (`client_stopped`) and closes the connection.
    public func run() async throws {
        try start()
        do {
            try await gracefulShutdown()
        } catch {}
        await stop()
    }

    /// The client's I/O thread as a task executor. Tasks that mostly call Tally (a load generator, a batch job)
    /// can run on it (`withTaskExecutorPreference(client.executor)`, or a task group's
    /// `addTask(executorPreference:)`): their requests then reach the socket and their replies reach them without
    /// waking another thread. They share the thread with the socket, so they must not block or compute for long.
    /// A client with no thread of its own (`FakeTally`'s) gives the global concurrent executor.
    public var executor: any TaskExecutor { transport.executor ?? globalConcurrentExecutor }

    /// Connects (in the background); `run()` and `withTallyClient` do it for you. Starting twice does nothing, and
    /// calls made before it waited for it.
    /// - Throws: `TallyClientError` (`client_stopped`) for a client that was stopped: make a new one.
    package func start() throws(TallyClientError) {
        try transport.start()
        gate.open()
    }

    /// Fails calls still waiting (`client_stopped`) and closes the connection, for good.
    package func stop() async {
        gate.close()
        await transport.stop()
    }

    /// Calls a method.
    /// - Parameters:
    ///   - method: the method, e.g. `HistoryMonth.self`.
    ///   - params: its params.
    ///   - service: the MDP service; defaults to the method's (`M.defaultService`: for `system.*` methods,
    ///     `tally.history`).
    ///   - timeout: overall time for this call, retries included; defaults to the configuration's.
    ///   - deadline: when the call must have ended, e.g. your own caller's deadline; with `timeout` too, the
    ///     earlier counts. Sent as the request's `deadline`, so no worker computes it after.
    ///   - retries: this call's attempts after the first; defaults to the configuration's.
    ///   - trace: the W3C trace context to send; by default the call's own client span's, when a tracer is
    ///     bootstrapped (see `TallyClient+Tracing`), else none.
    public func call<M: TallyMethod>(
        _ method: M.Type, _ params: M.Params, service: TallyService? = nil, timeout: Duration? = nil,
        deadline: ContinuousClock.Instant? = nil, retries: Int? = nil, trace: TraceContext? = nil
    ) async throws(TallyClientError) -> M.Result {
        let service = service ?? M.defaultService
        let span = InstrumentationSystem.tracer.startSpan("\(service.rawValue)/\(M.name)", ofKind: .client)
        defer { span.end() }
        Self.describe(span, service: service.rawValue, method: M.name)
        let budget = CallBudget(timeout: timeout ?? configuration.timeout, deadline: deadline)
        let id = makeID()
        let head = RequestHead(
            id: id, method: M.name, deadline: Timestamp(budget.wireDeadline),
            trace: Self.trace(for: span, explicit: trace))
        let body: [UInt8]
        do {
            body = try TallyJSON.encoder().encodeToBytes(RequestEnvelope(head: head, params: params))
        } catch {
            let failure = TallyClientError.encodingFailed("\(error)")
            Self.record(failure, on: span)
            throw failure
        }
        do {
            return try await exchange(
                body: body, service: service.rawValue, id: id, budget: budget,
                retries: retries ?? configuration.retries
            ) { reply in
                Self.decodeResponse(reply, as: M.Result.self)
            }
        } catch {
            Self.record(error, on: span)
            throw error
        }
    }

    /// Sends a raw JSON body and returns the raw reply: for tools (the `tally` CLI, `tally-load`) that pass
    /// documents through. The body's `id` must be unique among calls in flight. An error response is returned as it
    /// came, unless retries are on and its code is retryable (then, if every attempt fails, it is thrown).
    public func send(
        rawBody body: [UInt8], service: String, timeout: Duration? = nil, deadline: ContinuousClock.Instant? = nil,
        retries: Int? = nil
    ) async throws(TallyClientError) -> [UInt8] {
        let id = EnvelopeScanner.id(in: body)
        let retries = retries ?? configuration.retries
        return try await exchange(
            body: body, service: service, id: id,
            budget: CallBudget(timeout: timeout ?? configuration.timeout, deadline: deadline), retries: retries
        ) { reply in
            // Only a client that retries needs to look inside: the caller gets the bytes either way.
            if retries > 0, let code = EnvelopeScanner.errorCode(in: reply),
                Self.retryableCodes.contains(ErrorCode(rawValue: code)),
                let error = (try? TallyJSON.decoder().decode(ErrorProbe.self, from: reply))?.error
            {
                return .failure(TallyClientError(server: error))
            }
            return .success(reply)
        }
    }

    /// `system.ping` on `service`.
    public func ping(
        service: TallyService = SystemPing.defaultService, timeout: Duration? = nil,
        deadline: ContinuousClock.Instant? = nil,
        retries: Int? = nil
    ) async throws(TallyClientError) -> SystemPing.Result {
        try await call(
            SystemPing.self, SystemPing.Params(), service: service, timeout: timeout, deadline: deadline,
            retries: retries)
    }

    /// `system.describe` on `service`: the methods a worker serves there, with their schema ids.
    public func describe(
        service: TallyService = SystemDescribe.defaultService, timeout: Duration? = nil,
        deadline: ContinuousClock.Instant? = nil,
        retries: Int? = nil
    ) async throws(TallyClientError) -> SystemDescribe.Result {
        try await call(
            SystemDescribe.self, SystemDescribe.Params(), service: service, timeout: timeout, deadline: deadline,
            retries: retries)
    }

    /// Asks the broker (MMI `mmi.service`) whether `service` has at least one live worker.
    public func isServiceAvailable(_ service: String, timeout: Duration? = nil) async throws(TallyClientError) -> Bool {
        try await exchange(
            body: Array(service.utf8), service: MDP.serviceDiscovery, id: nil,
            budget: CallBudget(timeout: timeout ?? configuration.timeout, deadline: nil),
            retries: configuration.retries
        ) {
            .success(String(decoding: $0, as: UTF8.self) == "200")
        }
    }

    /// How each broker's connection stands, in the order of `configuration.brokers`: for a health check, or to
    /// see which broker a lost call's client had.
    public func brokerConnections() async -> [BrokerConnectionState] {
        await transport.connections()
    }

    func makeID() -> String {
        "\(idPrefix)-\(nextID.add(1, ordering: .relaxed).newValue)"
    }
}

/// Runs `body` with a running client and stops it afterwards, whatever `body` does: the scoped way to use Tally
/// from code that is not a swift-service-lifecycle service.
///
/// - Parameters:
///   - configuration: the client's brokers, patience and security; refused before `body` runs when it cannot work.
///   - logger: where the client logs (at debug and trace level).
///   - isolation: where `body` runs: by default the caller's actor, so that it may touch the caller's state.
///   - body: the work that calls Tally, given the running client; the client stops once it returns or throws.
/// - Throws: the `TallyClientError` of a configuration that cannot work (before `body` runs), or whatever `body`
///   throws, as it threw it.
public func withTallyClient<Result, Failure: Error>(
    _ configuration: TallyClientConfiguration, logger: Logger = Logger(label: "tally.client"),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (TallyClient) async throws(Failure) -> Result
) async throws -> Result {
    let client = try TallyClient(configuration: configuration, logger: logger)
    try client.start()
    do {
        let result = try await body(client)
        await client.stop()
        return result
    } catch {
        await client.stop()
        throw error
    }
}
