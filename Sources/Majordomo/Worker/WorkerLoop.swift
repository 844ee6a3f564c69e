import Logging
import ZeroMQ

/// One worker I/O thread's loop: the sockets of its share of the worker's connections, and the
/// `WorkerStateMachine` that decides what happens on them. The loop moves bytes and time (and computes requests
/// on this thread, when the worker says so); the machine decides.
struct WorkerLoop: IOLoop {
    let worker: MajordomoWorker
    let inbox: Inbox<MajordomoWorker.Command>
    let clock = MonotonicClock()
    var machine: WorkerStateMachine
    /// Each connection's socket while it is open, by its position in the machine.
    var sockets: [Socket?]
    var polls = PollSet()
    var inboxItem: PollSet.Item
    /// The poll item of each open connection's socket.
    var socketItems: [PollSet.Item?]
    /// Sockets were opened or closed since the poll set was built.
    var pollsAreStale = true
    /// Warnings a misbehaving broker (or a full queue) could repeat for every message, one line per interval.
    var throttle = LogThrottle()
    /// What the machine asked for and the loop has not carried out yet, kept with its capacity between turns.
    var actions: [WorkerAction] = []
    /// Replies computed in this turn of the loop and not sent yet (connection, frames), oldest first; see `flush`.
    var outgoing: [(connection: Int, frames: [Frame])] = []
    /// When the oldest reply in `outgoing` was computed.
    var outgoingSince: Duration?
    /// The MDP header and command frames, received without allocating again.
    let frameCache = FrameCache()

    var logger: Logger { worker.logger }

    init(worker: MajordomoWorker, sessions: [WorkerSession], inbox: Inbox<MajordomoWorker.Command>) {
        self.worker = worker
        self.inbox = inbox
        machine = WorkerStateMachine(sessions: sessions, instance: worker.instance, name: worker.configuration.name)
        sockets = [Socket?](repeating: nil, count: sessions.count)
        socketItems = [PollSet.Item?](repeating: nil, count: sessions.count)
        inboxItem = polls.add(inbox)
        actions.reserveCapacity(64)
    }

    mutating func run() {
        logger.debug(
            "worker I/O thread started",
            metadata: [
                "mdp.brokers": "\(worker.configuration.brokers.joined(separator: " "))",
                "mdp.services": "\(worker.configuration.services.joined(separator: ","))",
                "mdp.connections": "\(machine.sessions.map { String($0.index) }.joined(separator: ","))",
            ])
        machine.tick(now: clock.now, into: &actions)
        carryOut()
        let unexecuted = runTurns()
        flush()
        machine.finish(now: clock.now, into: &actions)
        carryOut()
        for case .status(let reply) in unexecuted + inbox.close() { reply(machine.status) }
        throttle.flush(now: clock.now, all: true, to: logger)
        logger.debug("worker I/O thread stopped")
    }

    // MARK: IOLoop

    mutating func prepareWait() -> Duration? {
        if pollsAreStale { rebuildPolls() }
        var wake = machine.nextDeadline ?? clock.now + .seconds(1)
        if let flush = throttle.nextFlush { wake = min(wake, flush) }
        return wake
    }

    mutating func execute(_ command: MajordomoWorker.Command) -> LoopControl {
        switch command {
        case .completed(let route, let reply):
            machine.completed(route, reply: reply, now: clock.now, into: &actions)
            carryOut()
        case .drain(let gracePeriod):
            logger.debug("worker I/O thread draining", metadata: ["grace": "\(gracePeriod)"])
            // A request already delivered to a socket is served rather than bounced back to the broker.
            for connection in sockets.indices { receive(on: connection, atMost: .max) }
            flush()
            machine.beginDraining(gracePeriod: gracePeriod, now: clock.now, into: &actions)
            carryOut()
        case .stop:
            return .stop
        case .status(let reply):
            reply(machine.status)
        }
        return .proceed
    }

    mutating func serveTurn() -> LoopControl {
        for connection in sockets.indices {
            if let item = socketItems[connection], polls.isReadable(item) {
                // At most the connection's credit's worth of messages (all the requests the broker may have sent it
                // at once, and a heartbeat): a flooded connection, whose replies bring the next requests before the
                // last is read, cannot keep this thread from the other connections and their heartbeats. What is
                // left waits for the next turn (the socket stays readable).
                receive(on: connection, atMost: machine.sessions[connection].credit + 1)
            }
        }
        flush()
        machine.tick(now: clock.now, into: &actions)
        carryOut()
        throttle.flush(now: clock.now, to: logger)
        return machine.isFinished(now: clock.now) ? .stop : .proceed
    }

    // MARK: Receiving

    /// Reads up to `limit` messages of one connection, each handed to the machine and its actions carried out at
    /// once (a request computed on this thread is answered before the next is read).
    mutating func receive(on connection: Int, atMost limit: Int) {
        var received = 0
        while received < limit, let socket = sockets[connection] {
            received += 1
            let message = socket.receive(within: worker.limits, cache: frameCache) { frames, _ in
                try WorkerInbound(frames: consume frames)
            }
            switch message {
            case .nothing: return
            case .failed(let error):
                warn("worker receive failed", on: connection, ["error": "\(error)"], level: .error)
                return
            case .message, .invalid:
                machine.received(message, on: connection, now: clock.now, into: &actions)
                carryOut()
            }
        }
    }

    // MARK: Actions

    /// Carries out what the machine asked for, in order.
    mutating func carryOut() {
        var index = 0
        while index < actions.count {
            let action = actions[index]
            index += 1
            switch action {
            case .connect(let connection):
                connect(connection)
            case .send(let connection, let frames):
                send(frames, on: connection)
            case .reply(let connection, let frames):
                hold(frames, for: connection)
            case .compute(let request, let route):
                compute(request, route: route)
            case .close(let connection):
                flush()
                closeSocket(connection)
            case .sayGoodbye(let connection):
                flush()
                send(WorkerOutbound.disconnect, on: connection)
                try? sockets[connection]?.set(.linger, .milliseconds(500))
                closeSocket(connection)
            case .notice(let notice):
                log(notice)
            }
        }
        actions.removeAll(keepingCapacity: true)
    }

    /// Computes a request as the worker says: here and now (its reply joins this turn's), or as a task whose reply
    /// comes back through the inbox.
    mutating func compute(_ request: WorkerRequest, route: ReplyRoute) {
        switch worker.computation {
        case .onIOThread(let compute):
            // Appended to the actions being carried out: the reply leaves in this same pass.
            machine.completed(route, reply: compute(request), now: clock.now, into: &actions)
        case .onTaskPool(let compute):
            let inbox = self.inbox
            Task.detached {
                let reply = await compute(request)
                inbox.post(.completed(route, reply: reply))
            }
        }
    }

    /// How long a computed reply may wait for the others of its turn. Replies leave together (one wake-up of
    /// libzmq's I/O thread for the lot, and one TCP write), but a turn of slow requests must not hold the first
    /// answer back until the last is computed.
    static let replyHoldLimit: Duration = .microseconds(200)

    mutating func hold(_ frames: [Frame], for connection: Int) {
        outgoing.append((connection, frames))
        let now = clock.now
        if let since = outgoingSince {
            if now - since >= Self.replyHoldLimit { flush() }
        } else {
            outgoingSince = now
        }
    }

    /// Sends the replies held so far, in order.
    mutating func flush() {
        guard !outgoing.isEmpty else { return }
        for (connection, frames) in outgoing { send(frames, on: connection) }
        outgoing.removeAll(keepingCapacity: true)
        outgoingSince = nil
    }

    mutating func connect(_ connection: Int) {
        let session = machine.sessions[connection]
        do {
            let socket = try Socket(worker.context, type: .dealer)
            // A broker host that does not answer a connect is tried again every heartbeat or second, not after the
            // kernel's back-off of SYNs (up to a minute apart): a broker that comes back is served again soon.
            try socket.set(.connectTimeout, max(worker.configuration.heartbeatInterval, .seconds(1)))
            try worker.limits.configure(
                socket, liveness: worker.configuration.tcpLiveness, setup: worker.socketSetup)
            try socket.connect(session.broker)
            sockets[connection] = socket
            pollsAreStale = true
            machine.connected(connection, now: clock.now, into: &actions)
        } catch {
            machine.connectFailed(connection, error: "\(error)", now: clock.now, into: &actions)
        }
    }

    mutating func closeSocket(_ connection: Int) {
        sockets[connection]?.close()
        sockets[connection] = nil
        pollsAreStale = true
    }

    mutating func send(_ frames: [Frame], on connection: Int) {
        guard let socket = sockets[connection] else { return }
        do {
            if try !socket.send(frames, dontWait: true) {
                warn("broker queue full; message dropped", on: connection)
            }
        } catch {
            warn("worker send failed", on: connection, ["error": "\(error)"], level: .error)
        }
    }

    mutating func rebuildPolls() {
        polls = PollSet()
        inboxItem = polls.add(inbox)
        for connection in sockets.indices {
            socketItems[connection] = sockets[connection].map { polls.add($0) }
        }
        pollsAreStale = false
    }

    // MARK: Log

    mutating func log(_ notice: WorkerNotice) {
        switch notice {
        case .brokerSilent(let connection, let silence):
            logger.warning(
                "broker silent; dropping connection",
                metadata: [
                    "mdp.broker": "\(machine.sessions[connection].broker)",
                    "reason": "broker silent for \(silence)",
                ])
        case .brokerSentDisconnect(let connection):
            logger.info(
                "broker sent DISCONNECT; reconnecting",
                metadata: ["mdp.broker": "\(machine.sessions[connection].broker)"])
        case .invalidMessage(let connection, let reason):
            warn("invalid message from broker dropped", on: connection, ["reason": "\(reason)"])
        case .replyForClosedConnection(let connection):
            logger.debug(
                "reply for a closed connection dropped (the broker re-queued it)",
                metadata: ["mdp.connection": "\(machine.sessions[connection].index)"])
        case .connectFailed(let connection, let error):
            warn("worker could not connect", on: connection, ["error": "\(error)"], level: .error)
        }
    }

    /// A warning about a connection, at most one line per broker and kind each interval (`LogThrottle`).
    mutating func warn(
        _ message: String, on connection: Int, _ metadata: Logger.Metadata = [:], level: Logger.Level = .warning
    ) {
        let session = machine.sessions[connection]
        var metadata = metadata
        metadata["mdp.connection"] = "\(session.index)"
        metadata["mdp.broker"] = "\(session.broker)"
        throttle.log(level, message, peer: session.broker, metadata: metadata, now: clock.now, to: logger)
    }
}
