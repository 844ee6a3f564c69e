import Logging
import ZeroMQ

/// The broker's I/O loop, owned by its thread: the router socket every client and worker connects to (and the ZAP
/// handler, with CURVE on), the monitor that counts peer connections, and the `BrokerStateMachine` that keeps the
/// queues, the workers and the requests they hold. The loop moves bytes and time; the machine decides what goes
/// where (`IOLoop`, the shape of every role's loop).
struct BrokerLoop: IOLoop {
    let broker: Broker
    let router: Socket
    /// The router's connection events.
    let monitor: ConnectionMonitor
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
    var polls = PollSet()
    let inboxItem: PollSet.Item
    let routerItem: PollSet.Item
    let monitorItem: PollSet.Item
    let authenticationItem: PollSet.Item?
    /// What the state machine asks for during one wake-up, sent together at the end of it, and kept (with its
    /// capacity) from one wake-up to the next.
    var actions: [BrokerAction] = []

    var inbox: Inbox<Broker.Command> { broker.inbox }
    var logger: Logger { broker.logger }
    var limits: TransportLimits { broker.limits }

    /// Makes the sockets and binds them, on the thread that will run the loop: the broker listens once this returns.
    init(broker: Broker) throws(ZMQError) {
        let router: Socket
        let monitor: ConnectionMonitor
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
        // A client or worker host that vanishes without a reset must not leave its connection open for good.
        try broker.limits.configure(
            router,
            liveness: TCPLiveness(
                heartbeatInterval: broker.configuration.heartbeatInterval,
                liveness: broker.configuration.heartbeatLiveness),
            setup: broker.socketSetup)
        // Peer connections opened and closed, for the console's count of clients: an event per connection,
        // nothing per message. Watched before the first bind, so that no accepted connection goes uncounted. The
        // monitor's events come from this thread's own socket: they are read every turn, one per connection.
        monitor = try ConnectionMonitor(
            watching: router, name: "inproc://mdp-broker-monitor-\(ObjectIdentifier(broker).hashValue)",
            events: PeerConnectionCount.events)
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
        routerItem = polls.add(router)
        inboxItem = polls.add(broker.inbox)
        if let authentication {
            authenticationItem = polls.add(authentication)
        } else {
            authenticationItem = nil
        }
        monitorItem = polls.add(monitor.socket)
        actions.reserveCapacity(64)
    }

    /// Serves until stopped, or drained; then answers what is left and closes.
    mutating func run() {
        let unexecuted = runTurns()
        // Answer everything still open, tell workers to go, and give those last messages a moment to leave.
        carryOut(machine.finish())
        eventLog.flush(now: clock.now, all: true)
        for case .snapshot(let detailed, let reply) in unexecuted + broker.inbox.close() {
            reply(snapshot(detailed: detailed))
        }
        try? router.set(.linger, .seconds(1))
        router.close()
        monitor.close()
        authentication?.close()
        logger.info("broker stopped")
    }

    // MARK: IOLoop

    mutating func prepareWait() -> Duration? {
        let wake = min(machine.nextTick, eventLog.nextFlush ?? .seconds(Int64.max))
        // Draining: the machine's idleness is checked often, so that the broker leaves as soon as it is done.
        return drainDeadline == nil ? wake : min(wake, clock.now + .milliseconds(50))
    }

    mutating func execute(_ command: Broker.Command) -> LoopControl {
        switch command {
        case .drain(let gracePeriod):
            logger.info("broker draining", metadata: ["grace": "\(gracePeriod)"])
            machine.beginDraining()
            drainDeadline = clock.now + gracePeriod
        case .stop:
            return .stop
        case .snapshot(let detailed, let reply):
            reply(snapshot(detailed: detailed))
        }
        return .proceed
    }

    mutating func serveTurn() -> LoopControl {
        if polls.isReadable(monitorItem) {
            for event in monitor.events() { peers.record(event) }
        }
        if let authentication, let authenticationItem, polls.isReadable(authenticationItem) {
            answerAuthentication(on: authentication)
        }
        if polls.isReadable(routerItem) {
            receiveBatch(now: clock.now)
        }
        let now = clock.now
        if now >= machine.nextTick { actions.append(contentsOf: machine.tick(now: now)) }
        // Everything this wake-up produced leaves together: libzmq wakes its I/O thread once per peer pipe that had
        // gone idle, instead of once for every message that finds it idle again.
        carryOut(actions)
        actions.removeAll(keepingCapacity: true)
        eventLog.flush(now: clock.now)
        if let deadline = drainDeadline, machine.isIdle || clock.now >= deadline { return .stop }
        return .proceed
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
    private mutating func receiveBatch(now: Duration) {
        let security = broker.security
        let maxBodyFrames = limits.maxRequestBodyFrames
        for _ in 0..<1000 {
            let received = router.receive(
                within: limits, cache: frameCache, metadataProperty: security == nil ? nil : "User-Id"
            ) { frames, metadata in
                if let violation = security?.roleViolation(frames: frames, metadata: metadata) {
                    throw InvalidMessage(violation)
                }
                let inbound = try BrokerInbound(frames: consume frames)
                if case .request(_, let body) = inbound.message, body.count > maxBodyFrames {
                    throw InvalidMessage("request body of \(body.count) frames (at most \(maxBodyFrames))")
                }
                return inbound
            }
            switch received {
            case .message(let inbound):
                machine.received(inbound, now: now, into: &actions)
            case .invalid(let sender, let reason):
                machine.receivedInvalid(from: sender, reason: reason, now: now, into: &actions)
            case .nothing:
                return
            case .failed(let error):
                logger.error("broker receive failed", metadata: ["error": "\(error)"])
                return
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
    private mutating func carryOut(_ actions: [BrokerAction]) {
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
                    carryOut(machine.peerUnreachable(frames, now: clock.now))
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
