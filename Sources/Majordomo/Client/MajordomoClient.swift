import Logging
import Synchronization
import ZeroMQ

/// An asynchronous Majordomo client: many requests in flight on one DEALER socket, each matched to its reply,
/// each with its own timeout. No REQ-socket lock-step.
///
/// Replies are matched by a correlation key: the caller gives each request a key, and `correlate` reads the key
/// of each reply (for Tally, the JSON envelope's `id`); requests without a key are matched in order per service. An
/// MMI query, whose reply carries only a status code, goes on a socket of its own that is closed once it is
/// answered or given up: its answer cannot reach another query, even one sent to another broker or after it timed
/// out. The socket connects to every broker given; requests are spread over the brokers that are connected
/// (`ZMQ_IMMEDIATE`), so a broker that is down receives none.
public final class MajordomoClient: Sendable {
    /// Reads the correlation key of a reply, or `nil` to match it in order.
    public typealias Correlator = @Sendable (ClientInbound) -> String?

    typealias Continuation = CheckedContinuation<Result<ClientInbound, MajordomoClientError>, Never>

    enum Command: Sendable {
        case send(
            token: UInt64, key: String?, service: String, frames: [Frame], timeout: Duration, continuation: Continuation
        )
        case cancel(token: UInt64)
        case stop
        /// A task's job, enqueued on `executor` from another thread.
        case run(UnownedJob)
    }

    public let brokers: [String]
    let correlate: Correlator
    let limits: TransportLimits
    let context: Context
    let socketSetup: SocketSetup?
    let logger: Logger
    let inbox: Inbox<Command>
    /// The I/O thread as a task executor (see `ClientExecutor`).
    public let executor: ClientExecutor
    let thread = Mutex<IOThread?>(nil)
    let nextToken = Atomic<UInt64>(0)
    let lifecycle = RoleLifecycle()

    public init(
        brokers: [String],
        limits: TransportLimits = TransportLimits(),
        context: Context? = nil,
        socketSetup: SocketSetup? = nil,
        logger: Logger,
        correlate: @escaping Correlator
    ) throws(ZMQError) {
        self.brokers = brokers
        self.correlate = correlate
        self.limits = limits
        self.context = try .forRole(given: context)
        self.socketSetup = socketSetup
        self.logger = logger
        let inbox = try Inbox<Command>()
        self.inbox = inbox
        self.executor = ClientExecutor(inbox: inbox)
    }

    /// Connects (in the background) and starts the I/O thread. Starting a running client does nothing.
    /// - Throws: `ZMQError` for an endpoint libzmq cannot parse (nothing keeps running then), or `ETERM` for a
    ///   client that was stopped (it cannot be started again).
    public func start() throws(ZMQError) {
        switch lifecycle.beginStart() {
        case .running: return
        case .stopped: throw .stopped("client")
        case .created: break
        }
        do {
            try startLoop()
        } catch {
            lifecycle.markStopped()
            throw error
        }
    }

    private func startLoop() throws(ZMQError) {
        let socket = try makeSocket()
        // Connection events per broker, so that a timeout can say how each one stood.
        let monitorAddress = "inproc://mdp-client-monitor-\(ObjectIdentifier(self).hashValue)"
        try socket.monitor(monitorAddress, events: .connection)
        let monitor = try Socket(context, type: .pair)
        try monitor.connect(monitorAddress)
        try connect(socket)
        // The sockets move to the I/O thread here and are used only there from now on.
        let handoff = SocketHandoff(socket)
        let monitorHandoff = SocketHandoff(monitor)
        let loop = IOThread(name: "mdp-client") { [self] in
            var loop = ClientLoop(client: self, socket: handoff.take(), monitor: monitorHandoff.take())
            loop.run()
        }
        thread.withLock { $0 = loop }
    }

    /// A DEALER socket as the client's requests need it: only connected brokers get messages (`ZMQ_IMMEDIATE`),
    /// the transport's limits, the caller's setup (CURVE keys). Not connected yet.
    func makeSocket() throws(ZMQError) -> Socket {
        let socket = try Socket(context, type: .dealer)
        try socket.set(.immediate, true)
        try socket.set(.maxMessageSize, limits.maxFrameBytes)
        try socket.set(.sendHighWaterMark, limits.highWaterMark)
        try socket.set(.receiveHighWaterMark, limits.highWaterMark)
        try socketSetup?(socket)
        return socket
    }

    /// Connects `socket` to every broker.
    func connect(_ socket: Socket) throws(ZMQError) {
        for broker in brokers { try socket.connect(broker) }
    }

    /// Sends a request and waits for its reply.
    /// - Parameters:
    ///   - service: the MDP service.
    ///   - body: the request body frames.
    ///   - key: the correlation key `correlate` will read from the reply; `nil` to match replies in order.
    ///   - timeout: how long to wait for the reply.
    public func request(
        service: String, body: [Frame], key: String?, timeout: Duration
    ) async throws(MajordomoClientError) -> ClientInbound {
        switch lifecycle.current {
        case .created: throw .notStarted
        case .stopped: throw .stopped
        case .running: break
        }
        let token = nextToken.add(1, ordering: .relaxed).newValue
        let frames = ClientOutbound.request(service: service, body: body)
        let executor = self.executor
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Continuation) in
                let command = Command.send(
                    token: token, key: key, service: service, frames: frames, timeout: timeout,
                    continuation: continuation)
                if !executor.post(command) { continuation.resume(returning: .failure(.stopped)) }
            }
        } onCancel: {
            _ = executor.post(.cancel(token: token))
        }
        return try result.get()
    }

    /// Fails every waiting request with `.stopped`, closes the socket and returns when the loop has ended.
    public func stop() async {
        requestStop()
        await thread.withLock { $0 }?.join()
    }

    /// Tells the loop to stop, without waiting for it (for a `deinit`, which cannot wait).
    public func requestStop() {
        lifecycle.markStopped()
        inbox.post(.stop)
    }
}
