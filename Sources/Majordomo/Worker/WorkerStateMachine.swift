import ZeroMQ

/// Everything one worker I/O thread decides, without a socket: which connections to open, what to send on them and
/// when (READY with or without capabilities, HEARTBEAT), when a broker is taken for gone, which requests to compute
/// and where their replies go, and how a drain ends. The loop (`WorkerLoop`) feeds it what arrived and the time,
/// and carries out the `WorkerAction`s it returns, in order.
///
/// A connection is a `WorkerSession` (its timers and its READY history); the machine holds the loop's share of
/// them, positions local to the loop.
struct WorkerStateMachine: Sendable {
    private(set) var sessions: [WorkerSession]
    /// Set once a drain begins: when the loop ends at the latest.
    private(set) var drainDeadline: Duration?
    /// What READY tells a Tally broker about this process.
    let instance: String
    let name: String?

    init(sessions: [WorkerSession], instance: String, name: String?) {
        self.sessions = sessions
        self.instance = instance
        self.name = name
    }

    var isDraining: Bool { drainDeadline != nil }

    /// When `tick` next has something to do (a heartbeat, a silent broker, a reconnect, the drain's end).
    var nextDeadline: Duration? {
        let draining = isDraining
        var deadline = sessions.lazy.filter { $0.isConnected || !draining }.map(\.nextTimer).min()
        if let drainDeadline { deadline = min(deadline ?? drainDeadline, drainDeadline) }
        return deadline
    }

    /// Whether the loop is done: drained, every connection closed or the grace period over.
    func isFinished(now: Duration) -> Bool {
        guard let drainDeadline else { return false }
        return now >= drainDeadline || !sessions.contains(where: \.isConnected)
    }

    /// The loop opened connection `connection`'s socket and connected it: READY goes first.
    mutating func connected(_ connection: Int, now: Duration, into actions: inout [WorkerAction]) {
        sessions[connection].connected(now: now)
        let session = sessions[connection]
        let capabilities = WorkerCapabilities(instance: instance, credit: session.credit, name: name)
        actions.append(
            .send(
                connection: connection,
                frames: WorkerOutbound.ready(
                    service: session.service, capabilities: session.offersCapabilities ? capabilities : nil)))
    }

    /// The loop could not make or connect the socket: tried again after the reconnect delay.
    mutating func connectFailed(_ connection: Int, error: String, now: Duration, into actions: inout [WorkerAction]) {
        sessions[connection].disconnected(now: now)
        actions.append(.notice(.connectFailed(connection: connection, error: error)))
    }

    /// A message from connection `connection`'s broker. Anything at all proves the broker alive.
    mutating func received(
        _ message: Received<WorkerInbound>, on connection: Int, now: Duration, into actions: inout [WorkerAction]
    ) {
        switch message {
        case .message(.request(let client, let body)):
            sessions[connection].heardFromBroker(now: now)
            sessions[connection].inFlight += 1
            let session = sessions[connection]
            actions.append(
                .compute(
                    WorkerRequest(service: session.service, body: body, connection: session.index),
                    route: ReplyRoute(connection: connection, generation: session.generation, client: client)))
        case .message(.heartbeat):
            sessions[connection].heardFromBroker(now: now)
        case .message(.disconnect):
            sessions[connection].heardFromBroker(now: now, disconnect: true)
            actions.append(.notice(.brokerSentDisconnect(connection: connection)))
            close(connection, now: now, into: &actions)
        case .invalid(_, let reason):
            sessions[connection].heardFromBroker(now: now)
            actions.append(.notice(.invalidMessage(connection: connection, reason: reason)))
        case .nothing, .failed:
            break
        }
    }

    /// The reply to a request `compute` asked for. It goes out only on the socket that brought the request: on a
    /// later one the broker has already given the request to another worker.
    mutating func completed(
        _ route: ReplyRoute, reply body: [Frame], now: Duration, into actions: inout [WorkerAction]
    ) {
        let session = sessions[route.connection]
        guard session.isConnected, session.generation == route.generation else {
            actions.append(.notice(.replyForClosedConnection(connection: route.connection)))
            return
        }
        sessions[route.connection].inFlight -= 1
        actions.append(
            .reply(connection: route.connection, frames: WorkerOutbound.reply(client: route.client, body: body)))
        retireIfIdle(route.connection, now: now, into: &actions)
    }

    /// What is due at `now`: heartbeats (also while draining: a connection finishing its last request must not
    /// look dead to its broker), brokers silent too long, reconnects (not while draining).
    mutating func tick(now: Duration, into actions: inout [WorkerAction]) {
        for connection in sessions.indices {
            switch sessions[connection].due(now: now) {
            case .sendHeartbeat:
                actions.append(.send(connection: connection, frames: WorkerOutbound.heartbeat))
            case .dropConnection:
                let silence = sessions[connection].brokerPatience
                actions.append(.notice(.brokerSilent(connection: connection, silence: silence)))
                close(connection, now: now, into: &actions)
            case .connect where !isDraining:
                actions.append(.connect(connection: connection))
            case .connect, nil:
                break
            }
        }
    }

    /// Stops taking work: connections with nothing in flight say goodbye now, the others after their last reply,
    /// and the loop ends at `now + gracePeriod` at the latest. Call it once the loop has read what its sockets
    /// already hold, so that a request already delivered is served rather than bounced back to the broker.
    mutating func beginDraining(gracePeriod: Duration, now: Duration, into actions: inout [WorkerAction]) {
        drainDeadline = now + gracePeriod
        for connection in sessions.indices { retireIfIdle(connection, now: now, into: &actions) }
    }

    /// The loop ends: every connection still open says goodbye.
    mutating func finish(now: Duration, into actions: inout [WorkerAction]) {
        for connection in sessions.indices where sessions[connection].isConnected {
            sayGoodbye(connection, now: now, into: &actions)
        }
    }

    /// How the connections stand, per service.
    var status: WorkerStatus {
        var services: [String: WorkerStatus.ServiceState] = [:]
        for session in sessions {
            var state = services[session.service] ?? .init(connected: 0, registered: 0, inFlight: 0)
            if session.isConnected { state.connected += 1 }
            if session.isConnected && session.hasHeardFromBroker { state.registered += 1 }
            state.inFlight += session.inFlight
            services[session.service] = state
        }
        return WorkerStatus(services: services, isDraining: isDraining)
    }

    private mutating func close(_ connection: Int, now: Duration, into actions: inout [WorkerAction]) {
        sessions[connection].disconnected(now: now)
        actions.append(.close(connection: connection))
    }

    /// Draining: a connection with nothing in flight says goodbye and closes for good.
    private mutating func retireIfIdle(_ connection: Int, now: Duration, into actions: inout [WorkerAction]) {
        guard isDraining, sessions[connection].inFlight == 0, sessions[connection].isConnected else { return }
        sayGoodbye(connection, now: now, into: &actions)
    }

    private mutating func sayGoodbye(_ connection: Int, now: Duration, into actions: inout [WorkerAction]) {
        sessions[connection].disconnected(now: now)
        actions.append(.sayGoodbye(connection: connection))
    }
}
