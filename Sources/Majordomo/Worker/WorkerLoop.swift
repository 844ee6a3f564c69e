import Logging
import ZeroMQ

/// One I/O thread's loop state: its share of the worker's sessions, their sockets and the poller. Session
/// positions in `sessions` are local to this loop; `WorkerSession.index` is the process-wide connection number.
struct WorkerLoop {
    let worker: MajordomoWorker
    let inbox: Inbox<MajordomoWorker.Command>
    let clock = MonotonicClock()
    var sessions: [WorkerSession] = []
    var sockets: [Socket?] = []
    var poller = Poller()
    /// Session index of each poller item after the first (the inbox).
    var polledSessions: [Int] = []
    var pollerIsStale = true
    var drainDeadline: Duration?
    /// Warnings a misbehaving broker (or a full queue) could repeat for every message, one line per interval.
    var throttle = LogThrottle()
    /// Replies computed in this turn of the loop and not sent yet (connection, frames), oldest first; see `flush`.
    var outgoing: [(index: Int, frames: [Frame])] = []
    /// When the oldest reply in `outgoing` was computed.
    var outgoingSince: Duration?
    /// The MDP header and command frames, received without allocating again.
    let frameCache = FrameCache()

    var logger: Logger { worker.logger }

    var draining: Bool { drainDeadline != nil }

    init(worker: MajordomoWorker, sessions: [WorkerSession], inbox: Inbox<MajordomoWorker.Command>) {
        self.worker = worker
        self.inbox = inbox
        self.sessions = sessions
        sockets = [Socket?](repeating: nil, count: sessions.count)
    }

    mutating func run() {
        for index in sessions.indices { connect(index) }
        logger.debug(
            "worker I/O thread started",
            metadata: [
                "mdp.brokers": "\(worker.configuration.brokers.joined(separator: " "))",
                "mdp.services": "\(worker.configuration.services.joined(separator: ","))",
                "mdp.connections": "\(sessions.map { String($0.index) }.joined(separator: ","))",
            ])
        while step() {}
        for index in sockets.indices where sockets[index] != nil {
            sayGoodbye(index)
        }
        for case .status(let reply) in inbox.close() { reply(status) }
        throttle.flush(now: clock.now, all: true, to: logger)
        logger.debug("worker I/O thread stopped")
    }

    /// One round of the loop; `false` when the worker is done.
    mutating func step() -> Bool {
        if pollerIsStale { rebuildPoller() }
        let now = clock.now
        let draining = self.draining
        var wakeAt = sessions.lazy.filter { $0.isConnected || !draining }.map(\.nextTimer).min() ?? now + .seconds(1)
        if let drainDeadline { wakeAt = min(wakeAt, drainDeadline) }
        if let flush = throttle.nextFlush { wakeAt = min(wakeAt, flush) }
        do {
            try poller.poll(timeout: max(.zero, wakeAt - now))
        } catch {
            logger.error("worker poll failed; stopping", metadata: ["error": "\(error)"])
            return false
        }
        if poller.ready(0).contains(.readable) {
            for command in inbox.takeAll() {
                if !execute(command) { return false }
            }
        }
        for (item, index) in polledSessions.enumerated() where poller.ready(item + 1).contains(.readable) {
            receiveTurn(on: index)
        }
        flush()
        for index in sessions.indices {
            switch sessions[index].due(now: clock.now) {
            case .sendHeartbeat:
                // Also while draining: a connection finishing its last request must not look dead to the broker.
                send(WorkerOutbound.heartbeat, on: index)
            case .dropConnection(let reason):
                logger.warning(
                    "broker silent; dropping connection",
                    metadata: ["mdp.broker": "\(sessions[index].broker)", "reason": "\(reason)"])
                close(index)
            case .connect:
                if draining { continue }
                connect(index)
            case nil:
                break
            }
        }
        throttle.flush(now: clock.now, to: logger)
        if let drainDeadline {
            return !(sockets.allSatisfy { $0 == nil } || clock.now >= drainDeadline)
        }
        return true
    }

    /// Handles a command from another thread; `false` to stop.
    mutating func execute(_ command: MajordomoWorker.Command) -> Bool {
        switch command {
        case .completed(let index, let generation, let client, let reply):
            guard sessions[index].generation == generation, sockets[index] != nil else {
                logger.debug(
                    "reply for a closed connection dropped (the broker re-queued it)",
                    metadata: ["mdp.connection": "\(index)"])
                return true
            }
            sessions[index].inFlight -= 1
            send(WorkerOutbound.reply(client: client, body: reply), on: index)
            retireIfIdle(index)
        case .drain(let gracePeriod):
            logger.debug("worker I/O thread draining", metadata: ["grace": "\(gracePeriod)"])
            drainDeadline = clock.now + gracePeriod
            for index in sessions.indices {
                // A request already delivered to this socket is served rather than bounced back to the broker.
                receiveAll(on: index)
            }
            flush()
            for index in sessions.indices { retireIfIdle(index) }
        case .stop:
            return false
        case .status(let reply):
            reply(status)
        }
        return true
    }

    var status: WorkerStatus {
        var services: [String: WorkerStatus.ServiceState] = [:]
        for session in sessions {
            var state = services[session.service] ?? .init(connected: 0, registered: 0, inFlight: 0)
            if session.isConnected { state.connected += 1 }
            if session.isConnected && session.hasHeardFromBroker { state.registered += 1 }
            state.inFlight += session.inFlight
            services[session.service] = state
        }
        return WorkerStatus(services: services, isDraining: draining)
    }

    /// Reads what one connection has for this turn of the loop: at most its credit's worth of messages (all the
    /// requests the broker may have sent it at once, and a heartbeat), so that a flooded connection, whose replies
    /// bring the next requests before the last is read, cannot keep its thread from the other connections: their
    /// requests, and the heartbeats that keep every connection registered, are due by time, not behind a flood.
    /// What is left waits for the next turn (`zmq_poll` still finds the socket readable).
    mutating func receiveTurn(on index: Int) {
        receive(on: index, atMost: sessions[index].credit + 1)
    }

    /// Reads everything waiting on one connection: when draining, a request already delivered is served rather than
    /// bounced back to the broker.
    mutating func receiveAll(on index: Int) {
        receive(on: index, atMost: .max)
    }

    mutating func receive(on index: Int, atMost limit: Int) {
        var received = 0
        while received < limit, let socket = sockets[index] {
            received += 1
            let message: ReceivedMessage?
            do {
                message = try socket.receive(maxFrames: worker.limits.maxFrames, dontWait: true, cache: frameCache)
            } catch {
                logger.error("worker receive failed", metadata: ["mdp.connection": "\(index)", "error": "\(error)"])
                return
            }
            guard let message else { return }
            sessions[index].heardFromBroker(now: clock.now, disconnect: message.frames == WorkerOutbound.disconnect)
            handle(message, on: index)
        }
    }

    mutating func handle(_ message: consuming ReceivedMessage, on index: Int) {
        guard !message.isTruncated else {
            warn("oversized message from broker dropped", on: index)
            return
        }
        // The decoder gets the only reference to the frame list, so that the body keeps its storage.
        let frames = message.frames
        message.frames = []
        let inbound: WorkerInbound
        do {
            inbound = try WorkerInbound(frames: frames)
        } catch {
            warn("invalid message from broker dropped", on: index, ["reason": "\(error)"])
            return
        }
        switch inbound {
        case .request(let client, let body):
            let request = WorkerRequest(service: sessions[index].service, body: body, connection: sessions[index].index)
            switch worker.computation {
            case .onIOThread(let compute):
                let reply = WorkerOutbound.reply(client: client, body: compute(request))
                outgoing.append((index, reply))
                let now = clock.now
                if let since = outgoingSince {
                    if now - since >= Self.replyHoldLimit { flush() }
                } else {
                    outgoingSince = now
                }
            case .onTaskPool(let compute):
                sessions[index].inFlight += 1
                let generation = sessions[index].generation
                let inbox = self.inbox
                Task.detached {
                    let reply = await compute(request)
                    inbox.post(.completed(session: index, generation: generation, client: client, reply: reply))
                }
            }
        case .heartbeat:
            break
        case .disconnect:
            logger.info("broker sent DISCONNECT; reconnecting", metadata: ["mdp.broker": "\(sessions[index].broker)"])
            close(index)
        }
    }

    // MARK: Connections

    mutating func connect(_ index: Int) {
        do {
            let socket = try Socket(worker.context, type: .dealer)
            try socket.set(.maxMessageSize, worker.limits.maxFrameBytes)
            try socket.set(.sendHighWaterMark, worker.limits.highWaterMark)
            try socket.set(.receiveHighWaterMark, worker.limits.highWaterMark)
            try worker.configuration.tcpLiveness.apply(to: socket)
            // A broker host that does not answer a connect is tried again every heartbeat or second, not after the
            // kernel's back-off of SYNs (up to a minute apart): a broker that comes back is served again soon.
            try socket.set(.connectTimeout, max(worker.configuration.heartbeatInterval, .seconds(1)))
            try worker.socketSetup?(socket)
            try socket.connect(sessions[index].broker)
            sockets[index] = socket
            pollerIsStale = true
            sessions[index].connected(now: clock.now)
            let capabilities = WorkerCapabilities(
                instance: worker.instance, credit: sessions[index].credit, name: worker.configuration.name)
            send(
                WorkerOutbound.ready(
                    service: sessions[index].service,
                    capabilities: sessions[index].offersCapabilities ? capabilities : nil),
                on: index)
        } catch {
            warn("worker could not connect", on: index, ["error": "\(error)"], level: .error)
            sessions[index].disconnected(now: clock.now)
        }
    }

    mutating func close(_ index: Int) {
        sockets[index]?.close()
        sockets[index] = nil
        pollerIsStale = true
        sessions[index].disconnected(now: clock.now)
    }

    /// Draining: a connection with nothing in flight says goodbye and closes for good.
    mutating func retireIfIdle(_ index: Int) {
        guard drainDeadline != nil, sessions[index].inFlight == 0, sockets[index] != nil else { return }
        sayGoodbye(index)
    }

    /// Sends DISCONNECT, gives it a moment to leave, and closes.
    mutating func sayGoodbye(_ index: Int) {
        send(WorkerOutbound.disconnect, on: index)
        try? sockets[index]?.set(.linger, .milliseconds(500))
        close(index)
    }

    /// How long a computed reply may wait for the others of its turn. Replies leave together (one wake-up of
    /// libzmq's I/O thread for the lot, and one TCP write), but a turn of slow requests must not hold the first
    /// answer back until the last is computed.
    static let replyHoldLimit: Duration = .microseconds(200)

    /// Sends the replies computed so far, in order; a draining connection with nothing left says goodbye after.
    mutating func flush() {
        guard !outgoing.isEmpty else { return }
        for (index, frames) in outgoing {
            send(frames, on: index)
        }
        if draining {
            for (index, _) in outgoing { retireIfIdle(index) }
        }
        outgoing.removeAll(keepingCapacity: true)
        outgoingSince = nil
    }

    mutating func send(_ frames: [Frame], on index: Int) {
        guard let socket = sockets[index] else { return }
        do {
            if try !socket.send(frames, dontWait: true) {
                warn("broker queue full; message dropped", on: index)
            }
        } catch {
            warn("worker send failed", on: index, ["error": "\(error)"], level: .error)
        }
    }

    /// A warning about connection `index`, at most one line per broker and kind each interval (`LogThrottle`).
    mutating func warn(
        _ message: String, on index: Int, _ metadata: Logger.Metadata = [:], level: Logger.Level = .warning
    ) {
        var metadata = metadata
        metadata["mdp.connection"] = "\(sessions[index].index)"
        metadata["mdp.broker"] = "\(sessions[index].broker)"
        throttle.log(
            level, message, peer: sessions[index].broker, metadata: metadata, now: clock.now, to: logger)
    }

    mutating func rebuildPoller() {
        poller = Poller()
        poller.register(fileDescriptor: inbox.wakeup.fileDescriptor)
        polledSessions = []
        for (index, socket) in sockets.enumerated() {
            if let socket {
                poller.register(socket)
                polledSessions.append(index)
            }
        }
        pollerIsStale = false
    }
}
