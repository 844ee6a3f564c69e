import Logging
import Synchronization
import ZeroMQ

/// An asynchronous Majordomo client: many requests in flight, each matched to its reply, each with its own timeout.
/// No REQ-socket lock-step.
///
/// Replies are matched by a correlation key: the caller gives each request a key, and `correlate` reads the key
/// of each reply (for Tally, the JSON envelope's `id`); requests without a key are matched in order per service. An
/// MMI query, whose reply carries only a status code, goes on a socket of its own that is closed once it is
/// answered or given up: its answer cannot reach another query, even one sent to another broker or after it timed
/// out.
///
/// Each broker has a DEALER socket of its own, so the client knows which broker holds which request. A request
/// goes to the connected broker that holds the fewest (`BrokerChoice`); a broker that is down receives none.
/// When a broker's connection is lost — it closed, or it stopped answering heartbeats (`BrokerLiveness`) — every
/// request it held is sent again at once, unchanged, to a broker that is up, or as soon as one is: losing a broker
/// costs a caller no attempt and no error.
package final class MajordomoClient: Sendable {
    /// Reads the correlation key of a reply, or `nil` to match it in order.
    package typealias Correlator = @Sendable (ClientInbound) -> String?

    typealias Continuation = CheckedContinuation<Result<ClientInbound, MajordomoClientError>, Never>

    enum Command: Sendable {
        case send(
            token: UInt64, key: String?, service: String, frames: [Frame], timeout: Duration, continuation: Continuation
        )
        case cancel(token: UInt64)
        case connections(@Sendable ([BrokerConnection]) -> Void)
        case stop
        /// A task's job, enqueued on `executor` from another thread.
        case run(UnownedJob)
    }

    package let brokers: [String]
    let correlate: Correlator
    let limits: TransportLimits
    let liveness: BrokerLiveness
    let context: Context
    let socketSetup: SocketSetup?
    let logger: Logger
    let inbox: Inbox<Command>
    /// The I/O thread as a task executor (see `ClientExecutor`).
    package let executor: ClientExecutor
    let thread = Mutex<IOThread?>(nil)
    let nextToken = Atomic<UInt64>(0)
    let lifecycle = RoleLifecycle()

    package init(
        brokers: [String],
        limits: TransportLimits = TransportLimits(),
        liveness: BrokerLiveness = BrokerLiveness(),
        context: Context? = nil,
        socketSetup: SocketSetup? = nil,
        logger: Logger,
        correlate: @escaping Correlator
    ) throws(ZMQError) {
        self.brokers = brokers
        self.correlate = correlate
        self.limits = limits
        self.liveness = liveness
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
    package func start() throws(ZMQError) {
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
        var links: [BrokerLink] = []
        for (index, broker) in brokers.enumerated() {
            links.append(try BrokerLink(endpoint: broker, socket: try makeSocket(), monitorName: monitorName(index)))
        }
        // The sockets move to the I/O thread here and are used only there from now on.
        let handoff = SocketHandoff(links)
        let loop = IOThread(name: "mdp-client") { [self] in
            var loop = ClientLoop(client: self, links: handoff.take())
            loop.run()
        }
        thread.withLock { $0 = loop }
    }

    /// Where broker `index`'s socket publishes its connection events.
    private func monitorName(_ index: Int) -> String {
        "inproc://mdp-client-monitor-\(ObjectIdentifier(self).hashValue)-\(index)"
    }

    /// A DEALER socket as the client's requests need it: the transport's limits, heartbeats, the caller's setup
    /// (CURVE keys). Not connected yet.
    /// - Parameter immediate: messages only over a connection that is up (`ZMQ_IMMEDIATE`): what a broker's link
    ///   needs, whose monitor sends what it held elsewhere when its connection drops, for libzmq then discards the
    ///   messages still queued. A socket that nothing monitors (an MMI query's) keeps them queued instead, to be
    ///   sent when its connection is back: a connection dropped for a missed heartbeat (a starved I/O thread) would
    ///   otherwise lose the query without a word.
    func makeSocket(immediate: Bool = true) throws(ZMQError) -> Socket {
        let socket = try Socket(context, type: .dealer)
        try socket.set(.immediate, immediate)
        try limits.configure(socket, liveness: liveness, setup: socketSetup)
        return socket
    }

    /// How each broker's connection stands now, in the order the brokers were given; every broker "not connected
    /// yet" before the client starts or after it stopped.
    package func connections() async -> [BrokerConnection] {
        let idle = brokers.map { BrokerConnection(endpoint: $0, status: .neverConnected(attempts: 0)) }
        guard lifecycle.current == .running else { return idle }
        return await withCheckedContinuation { continuation in
            let reply: @Sendable ([BrokerConnection]) -> Void = { continuation.resume(returning: $0) }
            if !executor.post(.connections(reply)) { continuation.resume(returning: idle) }
        }
    }

    /// Sends a request and waits for its reply.
    /// - Parameters:
    ///   - service: the MDP service.
    ///   - body: the request body frames.
    ///   - key: the correlation key `correlate` will read from the reply; `nil` to match replies in order.
    ///   - timeout: how long to wait for the reply.
    package func request(
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
    package func stop() async {
        requestStop()
        await thread.withLock { $0 }?.join()
    }

    /// Tells the loop to stop, without waiting for it (for a `deinit`, which cannot wait).
    package func requestStop() {
        lifecycle.markStopped()
        inbox.post(.stop)
    }
}
