import Foundation
import Logging
import Synchronization
import ZeroMQ

/// A Majordomo broker: one ROUTER socket for clients and workers, driven by `BrokerStateMachine` on a dedicated
/// I/O thread.
///
/// ```swift
/// let broker = Broker(endpoints: ["tcp://127.0.0.1:0"], logger: logger)
/// let bound = try broker.start()          // ["tcp://127.0.0.1:41237"]
/// …
/// await broker.shutdown(gracePeriod: .seconds(10))
/// ```
package final class Broker: DrainableRole {
    enum Command: Sendable {
        case drain(gracePeriod: Duration)
        case stop
        case snapshot(detailed: Bool, @Sendable (BrokerSnapshot) -> Void)
    }

    package let configuration: BrokerConfiguration
    package let endpoints: [String]
    let envelope: any ApplicationEnvelope
    let socketSetup: SocketSetup?
    let security: BrokerSecurity?
    let observer: (@Sendable (BrokerEvent) -> Void)?
    let traceObserver: (@Sendable (BrokerEvent, RequestTrace) -> Void)?
    let logger: Logger
    let context: Context
    let inbox: Inbox<Command>
    let thread = Mutex<IOThread?>(nil)
    let limits: TransportLimits
    let lifecycle = RoleLifecycle()
    /// The endpoints bound by `start`, ports resolved.
    let bound = Mutex<[String]>([])

    /// - Parameters:
    ///   - configuration: timing and bounds.
    ///   - endpoints: where to bind (`tcp://*:5555`, `tcp://127.0.0.1:0`, `ipc:///run/tally.sock`).
    ///   - envelope: what the broker may read of the bodies it relays: how it words its own answers, and the key
    ///     (the request id) that ties a reply to its request.
    ///   - limits: frame and message-size limits of the socket.
    ///   - security: CURVE with a ZAP allow-list; `nil` for plaintext (trusted networks only).
    ///   - socketSetup: extra socket configuration, applied before binding.
    ///   - observer: called on the I/O thread for every event but `requestTrace`; must be quick (metrics counters).
    ///   - traceObserver: called on the I/O thread, after `observer`, for each event about a request that has a
    ///     trace (`BrokerEvent.requestTrace`), with that trace (for a delivery, with the request's time in the queue);
    ///     must be quick too (spans handed to an exporter).
    ///   - logger: logs events at debug, protocol violations at warning.
    package init(
        configuration: BrokerConfiguration = BrokerConfiguration(),
        endpoints: [String],
        envelope: any ApplicationEnvelope = OpaqueEnvelope(),
        limits: TransportLimits = TransportLimits(),
        context: Context? = nil,
        security: BrokerSecurity? = nil,
        socketSetup: SocketSetup? = nil,
        observer: (@Sendable (BrokerEvent) -> Void)? = nil,
        traceObserver: (@Sendable (BrokerEvent, RequestTrace) -> Void)? = nil,
        logger: Logger
    ) throws(ZMQError) {
        self.security = security
        self.configuration = configuration
        self.endpoints = endpoints
        self.envelope = envelope
        self.limits = limits
        self.context = try .forRole(given: context)
        self.socketSetup = socketSetup
        self.observer = observer
        self.traceObserver = traceObserver
        self.logger = logger
        self.inbox = try Inbox()
    }

    /// Binds and starts the I/O thread. Starting a running broker does nothing (and returns the same endpoints).
    /// - Returns: the bound endpoints with ports resolved (`tcp://127.0.0.1:0` → `tcp://127.0.0.1:41237`).
    /// - Throws: `ZMQError` when a bind fails (address in use, bad endpoint; nothing keeps running then), or
    ///   `ETERM` for a broker that was stopped (it cannot be started again).
    @discardableResult
    package func start() throws(ZMQError) -> [String] {
        switch lifecycle.beginStart() {
        case .running: return bound.withLock { $0 }
        case .stopped: throw .stopped("broker")
        case .created: break
        }
        let outcome = Mutex<Result<[String], ZMQError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let loop = IOThread(name: "mdp-broker") { [self] in
            let report = { (result: Result<[String], ZMQError>) in
                outcome.withLock { $0 = result }
                ready.signal()
            }
            var loop: BrokerLoop
            do throws(ZMQError) {
                loop = try BrokerLoop(broker: self)
            } catch {
                report(.failure(error))
                return
            }
            logger.info("broker listening", metadata: ["mdp.endpoints": "\(loop.endpoints.joined(separator: " "))"])
            report(.success(loop.endpoints))
            loop.run()
        }
        ready.wait()
        let result = outcome.withLock { $0! }
        thread.withLock { $0 = loop }
        switch result {
        case .success(let endpoints):
            bound.withLock { $0 = endpoints }
            return endpoints
        case .failure(let error):
            loop.joinBlocking()
            lifecycle.markStopped()
            throw error
        }
    }

    /// Stops taking new requests, serves what is queued and running for up to `gracePeriod`, answers whatever is
    /// left `unavailable`, tells workers to DISCONNECT and returns when the loop has ended.
    package func shutdown(gracePeriod: Duration) async {
        lifecycle.markStopped()
        inbox.post(.drain(gracePeriod: gracePeriod))
        await thread.withLock { $0 }?.join()
    }

    /// Stops at once (queued requests are answered `unavailable`) and returns when the loop has ended.
    package func stop() async {
        lifecycle.markStopped()
        inbox.post(.stop)
        await thread.withLock { $0 }?.join()
    }

    /// The broker's queues and workers right now. A broker that has not started holds nothing and is not ready
    /// (it reads as draining).
    /// - Parameter detailed: with each service's worker processes, its queue's oldest wait and the peer
    ///   connections (`BrokerStateMachine.detailedSnapshot(now:)`): for the console, which asks at most once a
    ///   second; metrics and readiness need only the counts.
    package func snapshot(detailed: Bool = false) async -> BrokerSnapshot {
        guard lifecycle.current != .created else { return BrokerSnapshot(services: [:], isDraining: true) }
        return await withCheckedContinuation { continuation in
            let reply: @Sendable (BrokerSnapshot) -> Void = { continuation.resume(returning: $0) }
            // A broker whose loop has ended holds nothing.
            if !inbox.post(.snapshot(detailed: detailed, reply)) {
                reply(BrokerSnapshot(services: [:], isDraining: true))
            }
        }
    }
}
