import Logging
import ZeroMQ

/// The broker's I/O loop, owned by its thread: the router socket every client and worker connects to (and the ZAP
/// handler, with CURVE on), the monitor that counts peer connections, and the `BrokerStateMachine` that keeps the
/// queues, the workers and the requests they hold. The loop moves bytes and time; the machine decides what goes
/// where. The same shape as `ClientLoop` and `WorkerLoop`.
struct BrokerLoop {
    let broker: Broker
    let router: Socket
    /// The PAIR socket on which the router's connection events arrive.
    let monitor: Socket
    /// The ZAP handler answering CURVE handshakes; `nil` in plaintext.
    let authentication: Socket?
    /// Where the router listens, ports resolved.
    let endpoints: [String]
    let clock: MonotonicClock
    var machine: BrokerStateMachine
    var eventLog: BrokerEventLog
    var peers = PeerConnectionCount()
    /// Set once a drain begins: when the loop ends at the latest.
    var drainDeadline: Duration?
    /// Peers' routing ids, the MDP headers and commands, service names: received without allocating again.
    let frameCache = FrameCache()

    var logger: Logger { broker.logger }
    var limits: TransportLimits { broker.limits }

    /// Makes the sockets and binds them, on the thread that will run the loop: the broker listens once this returns.
    init(broker: Broker) throws(ZMQError) {
        let router: Socket
        let monitor: Socket
        var authentication: Socket?
        var bound: [String] = []
        if let security = broker.security {
            // The ZAP handler must exist before the first handshake, or libzmq admits every CURVE client.
            let handler = try Socket(broker.context, type: .reply)
            try handler.bind(ZAPRequest.endpoint)
            authentication = handler
            router = try Socket(broker.context, type: .router)
            try router.makeCurveServer(security.keyPair, zapDomain: security.zapDomain)
        } else {
            router = try Socket(broker.context, type: .router)
        }
        try router.set(.routerMandatory, true)
        try router.set(.maxMessageSize, broker.limits.maxFrameBytes)
        try router.set(.sendHighWaterMark, broker.limits.highWaterMark)
        try router.set(.receiveHighWaterMark, broker.limits.highWaterMark)
        // A client or worker host that vanishes without a reset must not leave its connection open for good.
        try TCPLiveness(
            heartbeatInterval: broker.configuration.heartbeatInterval,
            liveness: broker.configuration.heartbeatLiveness
        ).apply(to: router)
        try broker.socketSetup?(router)
        // Peer connections opened and closed, for the console's count of clients: an event per connection,
        // nothing per message. Watched before the first bind, so that no accepted connection goes uncounted.
        let monitorAddress = "inproc://mdp-broker-monitor-\(ObjectIdentifier(broker).hashValue)"
        try router.monitor(monitorAddress, events: PeerConnectionCount.events)
        monitor = try Socket(broker.context, type: .pair)
        // libzmq sends monitor events from the monitored socket's own thread, this one, and blocks when the
        // pipe is full: a burst of more connections than the pipe holds between two turns of this loop would
        // stop the broker for good. No limit on our side makes the pipe unbounded; the loop drains it each
        // turn, one event per connection opened or closed.
        try monitor.set(.receiveHighWaterMark, 0)
        try monitor.connect(monitorAddress)
        for endpoint in broker.endpoints {
            try router.bind(endpoint)
            bound.append(router.lastEndpoint)
        }
        self.broker = broker
        self.router = router
        self.monitor = monitor
        self.authentication = authentication
        self.endpoints = bound
        let clock = MonotonicClock()
        self.clock = clock
        eventLog = BrokerEventLog(logger: broker.logger)
        machine = BrokerStateMachine(configuration: broker.configuration, envelope: broker.envelope, now: clock.now)
    }

    /// Polls and executes state-machine actions until stopped, or drained; then answers what is left and closes.
    mutating func run() {
        var poller = Poller()
        let routerItem = poller.register(router)
        let inboxItem = poller.register(fileDescriptor: broker.inbox.wakeup.fileDescriptor)
        let authenticationItem = authentication.map { poller.register($0) }
        let monitorItem = poller.register(monitor)
        // What the state machine asks for during one wake-up, sent together at the end of it, and kept (with its
        // capacity) from one wake-up to the next.
        var actions: [BrokerAction] = []
        actions.reserveCapacity(64)

        loop: while true {
            let wait = max(.zero, min(machine.nextTick, eventLog.nextFlush ?? .seconds(Int64.max)) - clock.now)
            do {
                try poller.poll(timeout: drainDeadline == nil ? wait : min(wait, .milliseconds(50)))
            } catch {
                logger.error("broker poll failed; stopping", metadata: ["error": "\(error)"])
                break loop
            }
            if poller.ready(inboxItem).contains(.readable) {
                for command in broker.inbox.takeAll() {
                    switch command {
                    case .drain(let gracePeriod):
                        logger.info("broker draining", metadata: ["grace": "\(gracePeriod)"])
                        machine.beginDraining()
                        drainDeadline = clock.now + gracePeriod
                    case .stop:
                        break loop
                    case .snapshot(let detailed, let reply):
                        reply(snapshot(detailed: detailed))
                    }
                }
            }
            if poller.ready(monitorItem).contains(.readable) {
                while let message = try? monitor.receive(maxFrames: 4, dontWait: true) {
                    if let event = SocketEvent(frames: message.frames) { peers.record(event) }
                }
            }
            if let authentication, let authenticationItem, poller.ready(authenticationItem).contains(.readable) {
                answerAuthentication(on: authentication)
            }
            if poller.ready(routerItem).contains(.readable) {
                receiveBatch(into: &actions, now: clock.now)
            }
            let now = clock.now
            if now >= machine.nextTick { actions.append(contentsOf: machine.tick(now: now)) }
            // Everything this wake-up produced leaves together: libzmq wakes its I/O thread once per peer pipe
            // that had gone idle, instead of once for every message that finds it idle again.
            execute(actions)
            actions.removeAll(keepingCapacity: true)
            eventLog.flush(now: clock.now)
            if let deadline = drainDeadline, machine.isIdle || clock.now >= deadline {
                break loop
            }
        }
        // Answer everything still open, tell workers to go, and give those last messages a moment to leave.
        execute(machine.finish())
        eventLog.flush(now: clock.now, all: true)
        for case .snapshot(let detailed, let reply) in broker.inbox.close() {
            reply(snapshot(detailed: detailed))
        }
        try? router.set(.linger, .seconds(1))
        router.close()
        monitor.close()
        authentication?.close()
        logger.info("broker stopped")
    }

    /// What a `.snapshot` command asks for.
    private func snapshot(detailed: Bool) -> BrokerSnapshot {
        var snapshot = detailed ? machine.detailedSnapshot(now: clock.now) : machine.snapshot
        snapshot.peerConnections = peers.open
        return snapshot
    }

    /// Reads every message waiting on the router (at most 1,000, so that timers and commands are served even under
    /// a flood) and hands each to the state machine, collecting what it asks for in `actions`. All messages of the
    /// batch are stamped with the time the batch began: a batch takes well under a millisecond.
    private mutating func receiveBatch(into actions: inout [BrokerAction], now: Duration) {
        for _ in 0..<1000 {
            let received: ReceivedMessage?
            do {
                received = try router.receive(
                    maxFrames: limits.maxFrames, dontWait: true,
                    metadataProperty: broker.security == nil ? nil : "User-Id",
                    cache: frameCache)
            } catch {
                logger.error("broker receive failed", metadata: ["error": "\(error)"])
                return
            }
            guard var message = received else { return }
            if message.isTruncated {
                machine.receivedInvalid(
                    from: message.frames[0], reason: "more than \(limits.maxFrames) frames", now: now, into: &actions)
            } else if let violation = broker.security?.roleViolation(message) {
                machine.receivedInvalid(from: message.frames[0], reason: violation, now: now, into: &actions)
            } else {
                // The decoder gets the only reference to the frame list, so that the body keeps its storage.
                let sender = message.frames.first ?? .empty
                let frames = message.frames
                message.frames = []
                do {
                    let inbound = try BrokerInbound(frames: frames)
                    if case .request(_, let body) = inbound.message, body.count > limits.maxRequestBodyFrames {
                        let limit = limits.maxRequestBodyFrames
                        let reason = "request body of \(body.count) frames (at most \(limit))"
                        machine.receivedInvalid(from: inbound.sender, reason: reason, now: now, into: &actions)
                    } else {
                        machine.received(inbound, now: now, into: &actions)
                    }
                } catch {
                    machine.receivedInvalid(from: sender, reason: error.description, now: now, into: &actions)
                }
            }
        }
    }

    /// Answers the ZAP requests libzmq queued for CURVE handshakes (REQ/REP: one reply per request, in order).
    private mutating func answerAuthentication(on handler: Socket) {
        while let request = try? handler.receive(maxFrames: 16, dontWait: true) {
            let reply: [Frame]
            if let zap = ZAPRequest(frames: request.frames), let security = broker.security {
                let decision = security.authenticator.authenticate(zap)
                if case .deny(let reason) = decision {
                    eventLog.refusedConnection(address: zap.address, reason: reason, now: clock.now)
                } else {
                    logger.debug("connection authenticated", metadata: ["peer.address": "\(zap.address)"])
                }
                reply = decision.frames(for: zap)
            } else {
                logger.warning("malformed ZAP request refused")
                reply = [
                    "1.0", request.frames.count > 1 ? request.frames[1] : .empty, "500", "malformed request", .empty,
                    .empty,
                ]
            }
            _ = try? handler.send(reply)
        }
    }

    /// Carries out what the state machine asked for: sends, and events for the observers and the log.
    private mutating func execute(_ actions: [BrokerAction]) {
        // Set by `.requestTrace`, for the event right after it only.
        var trace: RequestTrace?
        for action in actions {
            switch action {
            case .send(let frames):
                do {
                    if try !router.send(frames, dontWait: true) {
                        eventLog.transport(
                            .warning, "peer queue full; message dropped", peer: frames[0], now: clock.now)
                    }
                } catch let error where error == .hostUnreachable {
                    execute(machine.peerUnreachable(frames, now: clock.now))
                } catch {
                    eventLog.transport(.error, "broker send failed", peer: frames[0], error: error, now: clock.now)
                }
            case .event(.requestTrace(let requestTrace)):
                trace = requestTrace
            case .event(let event):
                broker.observer?(event)
                if let trace { broker.traceObserver?(event, trace) }
                eventLog.record(event, trace: trace, now: clock.now)
                trace = nil
            }
        }
    }
}
