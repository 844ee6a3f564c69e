import Logging
import ZeroMQ

extension Broker {
    /// The I/O thread's body: bind, then poll and execute state-machine actions until stopped.
    func run(reportStart: (Result<[String], ZMQError>) -> Void) {
        let router: Socket
        let monitor: Socket
        var authentication: Socket?
        var bound: [String] = []
        do {
            if let security {
                // The ZAP handler must exist before the first handshake, or libzmq admits every CURVE client.
                let handler = try Socket(context, type: .reply)
                try handler.bind(ZAPRequest.endpoint)
                authentication = handler
                router = try Socket(context, type: .router)
                try router.makeCurveServer(security.keyPair, zapDomain: security.zapDomain)
            } else {
                router = try Socket(context, type: .router)
            }
            try router.set(.routerMandatory, true)
            try router.set(.maxMessageSize, limits.maxFrameBytes)
            try router.set(.sendHighWaterMark, limits.highWaterMark)
            try router.set(.receiveHighWaterMark, limits.highWaterMark)
            try socketSetup?(router)
            // Peer connections opened and closed, for the console's count of clients: an event per connection,
            // nothing per message. Watched before the first bind, so that no accepted connection goes uncounted.
            let monitorAddress = "inproc://mdp-broker-monitor-\(ObjectIdentifier(self).hashValue)"
            try router.monitor(monitorAddress, events: PeerConnectionCount.events)
            monitor = try Socket(context, type: .pair)
            // libzmq sends monitor events from the monitored socket's own thread, this one, and blocks when the
            // pipe is full: a burst of more connections than the pipe holds between two turns of this loop would
            // stop the broker for good. No limit on our side makes the pipe unbounded; the loop drains it each
            // turn, one event per connection opened or closed.
            try monitor.set(.receiveHighWaterMark, 0)
            try monitor.connect(monitorAddress)
            for endpoint in endpoints {
                try router.bind(endpoint)
                bound.append(router.lastEndpoint)
            }
        } catch {
            reportStart(.failure(error))
            return
        }
        logger.info("broker listening", metadata: ["mdp.endpoints": "\(bound.joined(separator: " "))"])
        reportStart(.success(bound))

        let clock = MonotonicClock()
        var eventLog = BrokerEventLog(logger: logger)
        var machine = BrokerStateMachine(configuration: configuration, envelope: envelope, now: clock.now)
        var poller = Poller()
        let routerItem = poller.register(router)
        let inboxItem = poller.register(fileDescriptor: inbox.wakeup.fileDescriptor)
        let authenticationItem = authentication.map { poller.register($0) }
        let monitorItem = poller.register(monitor)
        var peers = PeerConnectionCount()
        var drainDeadline: Duration?
        // What the state machine asks for during one wake-up, sent together at the end of it, and kept (with its
        // capacity) from one wake-up to the next.
        var actions: [BrokerAction] = []
        actions.reserveCapacity(64)
        // Peers' routing ids, the MDP headers and commands, service names: received without allocating again.
        let frameCache = FrameCache()

        loop: while true {
            let wait = max(.zero, min(machine.nextTick, eventLog.nextFlush ?? .seconds(Int64.max)) - clock.now)
            do {
                try poller.poll(timeout: drainDeadline == nil ? wait : min(wait, .milliseconds(50)))
            } catch {
                logger.error("broker poll failed; stopping", metadata: ["error": "\(error)"])
                break loop
            }
            if poller.ready(inboxItem).contains(.readable) {
                for command in inbox.takeAll() {
                    switch command {
                    case .drain(let gracePeriod):
                        logger.info("broker draining", metadata: ["grace": "\(gracePeriod)"])
                        machine.beginDraining()
                        drainDeadline = clock.now + gracePeriod
                    case .stop:
                        break loop
                    case .snapshot(let detailed, let reply):
                        reply(snapshot(of: machine, detailed: detailed, peers: peers, now: clock.now))
                    }
                }
            }
            if poller.ready(monitorItem).contains(.readable) {
                while let message = try? monitor.receive(maxFrames: 4, dontWait: true) {
                    if let event = SocketEvent(frames: message.frames) { peers.record(event) }
                }
            }
            if let authentication, let authenticationItem, poller.ready(authenticationItem).contains(.readable) {
                answerAuthentication(on: authentication, log: &eventLog, now: clock.now)
            }
            if poller.ready(routerItem).contains(.readable) {
                receiveBatch(on: router, cache: frameCache, machine: &machine, into: &actions, now: clock.now)
            }
            let now = clock.now
            if now >= machine.nextTick { actions.append(contentsOf: machine.tick(now: now)) }
            // Everything this wake-up produced leaves together: libzmq wakes its I/O thread once per peer pipe
            // that had gone idle, instead of once for every message that finds it idle again.
            execute(actions, on: router, machine: &machine, log: &eventLog, clock: clock)
            actions.removeAll(keepingCapacity: true)
            eventLog.flush(now: clock.now)
            if let deadline = drainDeadline, machine.isIdle || clock.now >= deadline {
                break loop
            }
        }
        // Answer everything still open, tell workers to go, and give those last messages a moment to leave.
        execute(machine.finish(), on: router, machine: &machine, log: &eventLog, clock: clock)
        eventLog.flush(now: clock.now, all: true)
        for case .snapshot(let detailed, let reply) in inbox.close() {
            reply(snapshot(of: machine, detailed: detailed, peers: peers, now: clock.now))
        }
        try? router.set(.linger, .seconds(1))
        router.close()
        monitor.close()
        authentication?.close()
        logger.info("broker stopped")
    }

    /// What a `.snapshot` command asks for.
    private func snapshot(
        of machine: BrokerStateMachine, detailed: Bool, peers: PeerConnectionCount, now: Duration
    ) -> BrokerSnapshot {
        guard detailed else { return machine.snapshot }
        var snapshot = machine.detailedSnapshot(now: now)
        snapshot.peerConnections = peers.open
        return snapshot
    }

    /// Reads every message waiting on the router (at most 1,000, so that timers and commands are served even under
    /// a flood) and hands each to the state machine, collecting what it asks for in `actions`. All messages of the
    /// batch are stamped with the time the batch began: a batch takes well under a millisecond.
    private func receiveBatch(
        on router: Socket, cache: FrameCache, machine: inout BrokerStateMachine, into actions: inout [BrokerAction],
        now: Duration
    ) {
        for _ in 0..<1000 {
            let received: ReceivedMessage?
            do {
                received = try router.receive(
                    maxFrames: limits.maxFrames, dontWait: true, metadataProperty: security == nil ? nil : "User-Id",
                    cache: cache)
            } catch {
                logger.error("broker receive failed", metadata: ["error": "\(error)"])
                return
            }
            guard var message = received else { return }
            if message.isTruncated {
                machine.receivedInvalid(
                    from: message.frames[0], reason: "more than \(limits.maxFrames) frames", now: now, into: &actions)
            } else if let violation = security?.roleViolation(message) {
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
    private func answerAuthentication(on handler: Socket, log: inout BrokerEventLog, now: Duration) {
        while let request = try? handler.receive(maxFrames: 16, dontWait: true) {
            let reply: [Frame]
            if let zap = ZAPRequest(frames: request.frames), let security {
                let decision = security.authenticator.authenticate(zap)
                if case .deny(let reason) = decision {
                    log.refusedConnection(address: zap.address, reason: reason, now: now)
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

    private func execute(
        _ actions: [BrokerAction], on router: Socket, machine: inout BrokerStateMachine, log: inout BrokerEventLog,
        clock: MonotonicClock
    ) {
        // Set by `.requestTrace`, for the event right after it only.
        var trace: RequestTrace?
        for action in actions {
            switch action {
            case .send(let frames):
                do {
                    if try !router.send(frames, dontWait: true) {
                        log.transport(.warning, "peer queue full; message dropped", peer: frames[0], now: clock.now)
                    }
                } catch let error where error == .hostUnreachable {
                    execute(
                        machine.peerUnreachable(frames, now: clock.now), on: router, machine: &machine, log: &log,
                        clock: clock)
                } catch {
                    log.transport(.error, "broker send failed", peer: frames[0], error: error, now: clock.now)
                }
            case .event(.requestTrace(let requestTrace)):
                trace = requestTrace
            case .event(let event):
                observer?(event)
                if let trace { traceObserver?(event, trace) }
                log.record(event, trace: trace, now: clock.now)
                trace = nil
            }
        }
    }
}
