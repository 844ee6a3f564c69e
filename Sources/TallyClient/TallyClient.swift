import Foundation
import Logging
import Majordomo
import Synchronization
import TallyProtocol
import ZeroMQ

/// The typed async client of Tally.
///
/// ```swift
/// let client = try TallyClient(configuration: .init(brokers: ["tcp://127.0.0.1:5555"]))
/// try client.start()
/// let pong = try await client.ping()
/// let month = try await client.call(HistoryMonth.self, params)
/// await client.stop()
/// ```
///
/// Many calls may be in flight at once from any tasks; each is matched to its reply by its request id.
/// Calls that time out, or that Tally answers `overloaded` or `unavailable`, are retried (every v1 method is
/// idempotent) within the call's overall timeout.
public final class TallyClient: Sendable {
    public let configuration: TallyClientConfiguration
    let transport: MajordomoClient
    let logger: Logger
    let idPrefix: String
    let nextID = Atomic<UInt64>(0)

    public init(
        configuration: TallyClientConfiguration,
        socketSetup: Broker.SocketSetup? = nil,
        logger: Logger = Logger(label: "tally.client")
    ) throws(ZMQError) {
        self.configuration = configuration
        self.logger = logger
        self.idPrefix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        self.transport = try MajordomoClient(
            brokers: configuration.brokers, limits: configuration.limits, socketSetup: socketSetup, logger: logger
        ) { reply in
            reply.body.first.flatMap { EnvelopeScanner.id(in: $0.bytes) }
        }
    }

    /// The client's I/O thread as a task executor. Tasks that mostly call Tally (a load generator, a batch job)
    /// can run on it (`withTaskExecutorPreference(client.executor)`, or a task group's
    /// `addTask(executorPreference:)`): their requests then reach the socket and their replies reach them without
    /// waking another thread. They share the thread with the socket, so they must not block or compute for long.
    public var executor: any TaskExecutor { transport.executor }

    /// Connects to the brokers (in the background).
    public func start() throws(ZMQError) {
        try transport.start()
    }

    /// Fails calls still waiting with `.stopped` and closes the connection.
    public func stop() async {
        await transport.stop()
    }

    /// Calls a method.
    /// - Parameters:
    ///   - method: the method, e.g. `HistoryMonth.self`.
    ///   - params: its params.
    ///   - service: the MDP service; defaults to the method's own (for `system.*` methods: `tally.history`).
    ///   - timeout: overall time for this call, retries included; defaults to the configuration's.
    public func call<M: TallyMethod>(
        _ method: M.Type, _ params: M.Params, service: TallyService? = nil, timeout: Duration? = nil
    ) async throws(TallyClientError) -> M.Result {
        let service = service ?? (M.service == .system ? .history : M.service)
        let timeout = timeout ?? configuration.timeout
        let deadline = Date().addingTimeInterval(
            Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18)
        let id = makeID()
        let head = RequestHead(id: id, method: M.name, deadline: Timestamp(deadline))
        let body: [UInt8]
        do {
            body = try TallyJSON.encoder().encodeToBytes(RequestEnvelope(head: head, params: params))
        } catch {
            throw .invalidParams("\(error)")
        }
        return try await exchange(body: [Frame(body)], service: service.rawValue, id: id, timeout: timeout) { reply in
            Self.decodeResponse(reply, as: M.Result.self)
        }
    }

    /// Sends a raw JSON body and returns the raw reply: for tools (the `tally` CLI) that pass documents through.
    /// The body's `id` must be unique among calls in flight.
    public func send(
        rawBody body: [UInt8], service: String, timeout: Duration? = nil
    ) async throws(TallyClientError) -> [UInt8] {
        let id = EnvelopeScanner.id(in: body)
        let retries = configuration.retries
        return try await exchange(
            body: [Frame(body)], service: service, id: id, timeout: timeout ?? configuration.timeout
        ) { reply in
            // Only a client that retries needs to look inside: the caller gets the bytes either way.
            if retries > 0, let code = EnvelopeScanner.errorCode(in: reply),
                Self.retryableCodes.contains(ErrorCode(rawValue: code)),
                let error = (try? TallyJSON.decoder().decode(ErrorProbe.self, from: reply))?.error
            {
                return .failure(.server(error))
            }
            return .success(reply)
        }
    }

    /// `system.ping` on `service`.
    public func ping(
        service: TallyService = .history, timeout: Duration? = nil
    ) async throws(TallyClientError) -> SystemPing.Result {
        try await call(SystemPing.self, SystemPing.Params(), service: service, timeout: timeout)
    }

    /// Asks the broker (MMI `mmi.service`) whether `service` has at least one live worker.
    public func isServiceAvailable(_ service: String, timeout: Duration? = nil) async throws(TallyClientError) -> Bool {
        try await exchange(
            body: [Frame(service)], service: MDP.serviceDiscovery, id: nil, timeout: timeout ?? configuration.timeout
        ) {
            .success(String(decoding: $0, as: UTF8.self) == "200")
        }
    }

    func makeID() -> String {
        "\(idPrefix)-\(nextID.add(1, ordering: .relaxed).newValue)"
    }
}
