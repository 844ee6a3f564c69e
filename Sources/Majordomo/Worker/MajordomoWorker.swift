import Foundation
import Logging
import Synchronization
import ZeroMQ

/// A Majordomo worker process: `concurrency` MDP connections per service per broker, all owned by one I/O thread.
///
/// Requests are computed by `handler` as Swift tasks, off the I/O thread, so heartbeats keep flowing while a
/// request computes; replies come back to the I/O thread through its inbox. A connection whose broker goes
/// silent or sends DISCONNECT is replaced by a new one that registers again (READY), so workers survive broker
/// restarts by themselves.
public final class MajordomoWorker: Sendable {
    /// Computes the reply body of one request. It must always return (an error reply is a reply).
    public typealias Handler = @Sendable (WorkerRequest) async -> [Frame]

    enum Command: Sendable {
        case completed(session: Int, generation: Int, client: Frame, reply: [Frame])
        case drain(gracePeriod: Duration)
        case stop
        case status(@Sendable (WorkerStatus) -> Void)
    }

    public let configuration: WorkerConfiguration
    let handler: Handler
    let limits: TransportLimits
    let context: Context
    let socketSetup: Broker.SocketSetup?
    let logger: Logger
    let inbox: Inbox<Command>
    let thread = Mutex<IOThread?>(nil)

    public init(
        configuration: WorkerConfiguration,
        limits: TransportLimits = TransportLimits(),
        context: Context? = nil,
        socketSetup: Broker.SocketSetup? = nil,
        logger: Logger,
        handler: @escaping Handler
    ) throws(ZMQError) {
        self.configuration = configuration
        self.handler = handler
        self.limits = limits
        if let context {
            self.context = context
        } else {
            self.context = try Context()
        }
        self.socketSetup = socketSetup
        self.logger = logger
        self.inbox = try Inbox()
    }

    /// Starts the I/O thread; connections register with their brokers in the background.
    public func start() {
        let loop = IOThread(name: "mdp-worker") { [self] in run() }
        thread.withLock { $0 = loop }
    }

    /// Stops taking work: idle connections send DISCONNECT at once, busy ones after sending their reply; returns
    /// when all are closed or `gracePeriod` has passed (unfinished requests are then re-queued by the broker).
    public func shutdown(gracePeriod: Duration) async {
        inbox.post(.drain(gracePeriod: gracePeriod))
        await thread.withLock { $0 }?.join()
    }

    /// The state of the worker's connections right now.
    public func status() async -> WorkerStatus {
        await withCheckedContinuation { continuation in
            inbox.post(.status { continuation.resume(returning: $0) })
        }
    }

    /// Closes every connection at once; requests in progress are re-queued by the broker.
    public func stop() async {
        inbox.post(.stop)
        await thread.withLock { $0 }?.join()
    }
}

/// How a worker's connections stand, for health checks.
public struct WorkerStatus: Sendable, Hashable {
    public struct ServiceState: Sendable, Hashable {
        /// Connections with an open socket.
        public var connected: Int
        /// Connections the broker has answered since they connected (so it knows them).
        public var registered: Int
        /// Requests being computed.
        public var inFlight: Int
    }

    public var services: [String: ServiceState]
    public var isDraining: Bool

    /// Ready to serve: not draining, and every service registered with at least one broker.
    public var isReady: Bool {
        !isDraining && !services.isEmpty && services.values.allSatisfy { $0.registered > 0 }
    }
}
