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
public final class Broker: Sendable {
    enum Command: Sendable {
        case drain(gracePeriod: Duration)
        case stop
        case snapshot(@Sendable (BrokerSnapshot) -> Void)
    }

    public let configuration: BrokerConfiguration
    public let endpoints: [String]
    let envelope: any ApplicationEnvelope
    let socketSetup: SocketSetup?
    let security: BrokerSecurity?
    let observer: (@Sendable (BrokerEvent) -> Void)?
    let logger: Logger
    let context: Context
    let inbox: Inbox<Command>
    let thread = Mutex<IOThread?>(nil)
    let limits: TransportLimits

    /// Configures the ROUTER socket before it binds (CURVE keys, ZAP domain…); runs on the I/O thread.
    public typealias SocketSetup = @Sendable (Socket) throws(ZMQError) -> Void

    /// - Parameters:
    ///   - configuration: timing and bounds.
    ///   - endpoints: where to bind (`tcp://*:5555`, `tcp://127.0.0.1:0`, `ipc:///run/tally.sock`).
    ///   - envelope: what the broker may read of the bodies it relays: how it words its own answers, and the key
    ///     (the request id) that ties a reply to its request.
    ///   - limits: frame and message-size limits of the socket.
    ///   - security: CURVE with a ZAP allow-list; `nil` for plaintext (trusted networks only).
    ///   - socketSetup: extra socket configuration, applied before binding.
    ///   - observer: called on the I/O thread for every event; must be quick (metrics counters).
    ///   - logger: logs events at debug, protocol violations at warning.
    public init(
        configuration: BrokerConfiguration = BrokerConfiguration(),
        endpoints: [String],
        envelope: any ApplicationEnvelope = OpaqueEnvelope(),
        limits: TransportLimits = TransportLimits(),
        context: Context? = nil,
        security: BrokerSecurity? = nil,
        socketSetup: SocketSetup? = nil,
        observer: (@Sendable (BrokerEvent) -> Void)? = nil,
        logger: Logger
    ) throws(ZMQError) {
        self.security = security
        self.configuration = configuration
        self.endpoints = endpoints
        self.envelope = envelope
        self.limits = limits
        if let context {
            self.context = context
        } else {
            self.context = try Context()
        }
        self.socketSetup = socketSetup
        self.observer = observer
        self.logger = logger
        self.inbox = try Inbox()
    }

    /// Binds and starts the I/O thread.
    /// - Returns: the bound endpoints with ports resolved (`tcp://127.0.0.1:0` → `tcp://127.0.0.1:41237`).
    /// - Throws: `ZMQError` when a bind fails (address in use, bad endpoint); nothing keeps running then.
    public func start() throws(ZMQError) -> [String] {
        let outcome = Mutex<Result<[String], ZMQError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let loop = IOThread(name: "mdp-broker") { [self] in
            run { result in
                outcome.withLock { $0 = result }
                ready.signal()
            }
        }
        ready.wait()
        let result = outcome.withLock { $0! }
        if case .failure = result { loop.joinBlocking() }
        thread.withLock { $0 = loop }
        return try result.get()
    }

    /// Stops taking new requests, serves what is queued and running for up to `gracePeriod`, answers whatever is
    /// left `unavailable`, tells workers to DISCONNECT and returns when the loop has ended.
    public func shutdown(gracePeriod: Duration) async {
        inbox.post(.drain(gracePeriod: gracePeriod))
        await thread.withLock { $0 }?.join()
    }

    /// Stops at once (queued requests are answered `unavailable`) and returns when the loop has ended.
    public func stop() async {
        inbox.post(.stop)
        await thread.withLock { $0 }?.join()
    }

    /// The broker's queues and workers right now.
    public func snapshot() async -> BrokerSnapshot {
        await withCheckedContinuation { continuation in
            let reply: @Sendable (BrokerSnapshot) -> Void = { continuation.resume(returning: $0) }
            // A broker whose loop has ended holds nothing.
            if !inbox.post(.snapshot(reply)) { reply(BrokerSnapshot(services: [:], isDraining: true)) }
        }
    }
}

/// Limits every Tally socket applies to what peers may send.
public struct TransportLimits: Sendable, Hashable {
    /// Largest message part; a peer sending a larger one is disconnected by libzmq (`ZMQ_MAXMSGSIZE`).
    public var maxFrameBytes: Int64 = 16 << 20
    /// Frames kept per message; longer messages are drained and treated as malformed.
    public var maxFrames: Int = 32
    /// Queue limit per peer in messages (`ZMQ_SNDHWM`/`ZMQ_RCVHWM`).
    public var highWaterMark: Int32 = 10_000

    public init() {}

    /// Body frames a client request may carry. A worker receives the body behind five frames of its own
    /// (delimiter, header, command, client, delimiter) under the same `maxFrames`, so a longer body would reach it
    /// truncated, be dropped there, and leave the request unanswered and the worker's slot held for ever.
    public var maxRequestBodyFrames: Int { maxFrames - 5 }
}
