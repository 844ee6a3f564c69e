import Foundation
import Logging
import Synchronization
import ZeroMQ

/// A Majordomo worker process: a few MDP connections per service per broker (one per I/O thread by default), each
/// offering the broker credit for several requests at once, spread over I/O threads that each own their
/// connections' sockets.
///
/// Requests are computed as `computation` says: on the I/O thread that received them (no hand-off; Tally's
/// choice) or as Swift tasks whose replies come back through the thread's inbox. A connection whose broker goes
/// silent or sends DISCONNECT is replaced by a new one that registers again (READY), so workers survive broker
/// restarts by themselves.
package final class MajordomoWorker: DrainableRole {
    /// Computes the reply body of one request as a task. It must always return (an error reply is a reply).
    package typealias Handler = @Sendable (WorkerRequest) async -> [Frame]

    enum Command: Sendable {
        /// A task-pool computation finished: its reply, to go where `route` says.
        case completed(ReplyRoute, reply: [Frame])
        case drain(gracePeriod: Duration)
        case stop
        case status(@Sendable (WorkerStatus) -> Void)
    }

    package let configuration: WorkerConfiguration
    /// Names this worker process to the broker (`WorkerCapabilities.instance`): its connections live and die
    /// together, which the broker needs to know to give a suspect request a process of its own.
    package let instance = String(UInt64.random(in: 1...UInt64.max), radix: 16)
    let computation: RequestComputation
    let limits: TransportLimits
    let context: Context
    let socketSetup: SocketSetup?
    let logger: Logger
    /// One per I/O thread, in thread order.
    let inboxes: [Inbox<Command>]
    let threads = Mutex<[IOThread]>([])
    let lifecycle = RoleLifecycle()

    /// A worker whose requests compute as Swift tasks (for handlers that await).
    package convenience init(
        configuration: WorkerConfiguration,
        limits: TransportLimits = TransportLimits(),
        context: Context? = nil,
        socketSetup: SocketSetup? = nil,
        logger: Logger,
        handler: @escaping Handler
    ) throws(ZMQError) {
        try self.init(
            configuration: configuration, limits: limits, context: context, socketSetup: socketSetup, logger: logger,
            computation: .onTaskPool(handler))
    }

    package init(
        configuration: WorkerConfiguration,
        limits: TransportLimits = TransportLimits(),
        context: Context? = nil,
        socketSetup: SocketSetup? = nil,
        logger: Logger,
        computation: RequestComputation
    ) throws(ZMQError) {
        self.configuration = configuration
        self.computation = computation
        self.limits = limits
        self.context = try .forRole(given: context)
        self.socketSetup = socketSetup
        self.logger = logger
        var inboxes: [Inbox<Command>] = []
        for _ in 0..<Self.threadCount(configuration) { inboxes.append(try Inbox()) }
        self.inboxes = inboxes
    }

    /// How many I/O threads the worker runs (each computes one request at a time with `.onIOThread`).
    package var ioThreadCount: Int { inboxes.count }

    /// I/O threads for `configuration`: as asked, or one per core, but never more than connections.
    static func threadCount(_ configuration: WorkerConfiguration) -> Int {
        let connections = WorkerSession.all(for: configuration).count
        return max(1, min(connections, configuration.requestedThreads))
    }

    /// Starts the I/O threads; connections register with their brokers in the background. Starting a running
    /// worker does nothing.
    /// - Throws: `ETERM` for a worker that was stopped (it cannot be started again).
    package func start() throws(ZMQError) {
        switch lifecycle.beginStart() {
        case .running: return
        case .stopped: throw .stopped("worker")
        case .created: break
        }
        let sessions = WorkerSession.all(for: configuration)
        var started: [IOThread] = []
        for (thread, inbox) in inboxes.enumerated() {
            // Round-robin, so that every thread serves every service and broker when there are enough connections.
            let own = sessions.filter { $0.index % inboxes.count == thread }
            started.append(
                IOThread(name: "mdp-worker-\(thread)", stackSize: 8 << 20) { [self] in
                    var loop = WorkerLoop(worker: self, sessions: own, inbox: inbox)
                    loop.run()
                })
        }
        threads.withLock { $0 = started }
        logger.info(
            "worker started",
            metadata: [
                "mdp.brokers": "\(configuration.brokers.joined(separator: " "))",
                "mdp.services": "\(configuration.services.joined(separator: ","))",
                "mdp.connections": "\(sessions.count)", "mdp.io_threads": "\(inboxes.count)",
            ])
    }

    /// Stops taking work: idle connections send DISCONNECT at once, busy ones after sending their reply; returns
    /// when all are closed or `gracePeriod` has passed (unfinished requests are then re-queued by the broker).
    package func shutdown(gracePeriod: Duration) async {
        lifecycle.markStopped()
        logger.info("worker draining", metadata: ["grace": "\(gracePeriod)"])
        for inbox in inboxes { inbox.post(.drain(gracePeriod: gracePeriod)) }
        await joinThreads()
    }

    /// The state of the worker's connections right now. A worker that has not started has none and is not ready.
    package func status() async -> WorkerStatus {
        guard lifecycle.current != .created else { return WorkerStatus(services: [:], isDraining: false) }
        var merged = WorkerStatus(services: [:], isDraining: false)
        for inbox in inboxes {
            let part = await withCheckedContinuation { continuation in
                let reply: @Sendable (WorkerStatus) -> Void = { continuation.resume(returning: $0) }
                // A thread that has ended serves nothing.
                if !inbox.post(.status(reply)) { reply(WorkerStatus(services: [:], isDraining: true)) }
            }
            merged.merge(part)
        }
        return merged
    }

    /// Closes every connection at once; requests in progress are re-queued by the broker.
    package func stop() async {
        lifecycle.markStopped()
        for inbox in inboxes { inbox.post(.stop) }
        await joinThreads()
    }

    private func joinThreads() async {
        for thread in threads.withLock({ $0 }) { await thread.join() }
        logger.info("worker stopped")
    }
}
