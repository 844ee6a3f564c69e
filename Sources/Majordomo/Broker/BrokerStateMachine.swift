import DequeModule
import ZeroMQ

/// The Majordomo broker's logic with no sockets and no clock: inputs are decoded messages and the current
/// monotonic time, outputs are `BrokerAction`s for the socket loop to execute.
///
/// - Requests queue per service and go to the least-recently-used worker connection of that service with room.
/// - Each dispatch carries a `DispatchToken` in the client-address frame. A reply is delivered only when its token
///   names a request the replying connection holds, and when its correlation key (the v1 `id`) agrees with the
///   request's; anything else is refused, the connection is dropped and what it held is re-queued. So a reply
///   reaches only the client that asked, at most once.
/// - A worker that is lost while holding requests gives them back to the front of their queue (bounded by
///   `maxAttempts`). How it was lost decides what that costs them: a clean DISCONNECT costs nothing (a draining
///   worker's goodbye crosses requests already on the wire); a worker that vanished (died, expired, became
///   unreachable) makes the request a suspect, retried once on a worker process of its own. A suspect whose
///   isolated worker vanishes too is what kills workers: it is answered, not tried a third time.
/// - Queues are bounded in length and waiting time, and services named only by clients are bounded apart from
///   those workers registered; the client always gets an answer.
///
/// Time is a `Duration` since an arbitrary origin (the runtime passes time since start), so tests drive it
/// deterministically.
public struct BrokerStateMachine: Sendable {
    struct Request: Sendable {
        let sequence: UInt64
        let client: Frame
        let service: String
        let body: [Frame]
        let arrivedAt: Duration
        /// The application's key that a reply must echo (`ApplicationEnvelope.correlationKey`).
        let correlation: [UInt8]?
        /// Dispatches so far.
        var attempts = 0
        /// Workers that vanished while holding it (not counting clean goodbyes or protocol violations).
        var workersLost = 0

        /// Lost a worker once already: it runs alone on a worker process, so that losing that one too proves it.
        var isSuspect: Bool { workersLost > 0 }
    }

    /// One request sent to a worker connection and not yet answered.
    struct Assignment: Sendable {
        let token: DispatchToken
        let request: Request
        let sentAt: Duration
    }

    /// A worker process, or a plain MDP/0.1 connection that did not name one: the unit that dies at once.
    enum Instance: Hashable, Sendable {
        case process(String)
        case connection(Frame)
    }

    struct InstanceState: Sendable {
        var connections = 0
        /// Requests held by all its connections.
        var held = 0
        /// Holds a suspect request: nothing else is sent to it until that one is answered or lost.
        var isIsolated = false
        /// Kept free of new work so that it empties for the suspect waiting at the head of this service's queue.
        var reservedFor: String?
        /// One of its connections said DISCONNECT: a Tally worker says it only when the process leaves (draining
        /// on SIGTERM), so its other connections get no new work while they finish and say goodbye too.
        var isDeparting = false
    }

    struct Worker: Sendable {
        let id: Frame
        let service: String
        let instance: Instance
        /// Requests the connection may hold at once (1 for MDP/0.1).
        let credit: Int
        var expiresAt: Duration
        var held: [Assignment] = []

        var hasRoom: Bool { held.count < credit }
    }

    struct Service: Sendable {
        var queue = Deque<Request>()
        /// Connections with room for another request, least recently used first.
        var available = Deque<Frame>()
        var workerCount = 0
        /// The worker process kept free of new work for the suspect at the head of the queue, if any.
        var reservation: Instance?
    }

    /// How a worker connection came to be forgotten: it decides what its requests pay.
    enum WorkerLoss: Sendable {
        /// DISCONNECT: a goodbye. Whatever it still held crossed the goodbye on the wire and was never computed.
        case departed
        /// Expired, unreachable: the process may have died computing something it held.
        case vanished
        /// It broke the protocol: nothing it holds is trusted to be answered.
        case misbehaved
    }

    public let configuration: BrokerConfiguration
    let envelope: any ApplicationEnvelope
    var workers: [Frame: Worker] = [:]
    var services: [String: Service] = [:]
    var instances: [Instance: InstanceState] = [:]
    var nextSequence: UInt64 = 0
    var nextToken: UInt64 = 0
    var nextHeartbeatAt: Duration
    /// Set when a release ended an isolation or emptied a reserved instance, until `settle` acts on it.
    var instanceFreed = false
    /// Set by `beginDraining`: new requests are refused, queued ones still served.
    public private(set) var isDraining = false

    public init(configuration: BrokerConfiguration, envelope: any ApplicationEnvelope, now: Duration) {
        self.configuration = configuration
        self.envelope = envelope
        self.nextHeartbeatAt = now + configuration.heartbeatInterval
    }

    // MARK: Inputs

    /// Handles one decoded message.
    public mutating func received(_ inbound: BrokerInbound, now: Duration) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        let sender = inbound.sender
        switch inbound.message {
        case .request(let service, let body):
            clientRequest(from: sender, service: service, body: body, now: now, into: &actions)
        case .ready(let service, let capabilities):
            workerReady(sender, service: service, capabilities: capabilities, now: now, into: &actions)
        case .reply(let address, let body):
            workerReply(from: sender, address: address, body: body, now: now, into: &actions)
        case .heartbeat:
            if workers[sender] != nil {
                workers[sender]!.expiresAt = now + configuration.workerExpiry
            } else {
                actions.append(.send(BrokerOutbound.disconnect(to: sender)))
            }
        case .disconnect:
            if let worker = workers[sender] {
                if case .process = worker.instance { instances[worker.instance]!.isDeparting = true }
                actions.append(.event(.workerDisconnected(worker: sender, service: worker.service)))
                removeWorker(sender, loss: .departed, now: now, into: &actions)
            }
        }
        settle(now: now, into: &actions)
        return actions
    }

    /// Handles frames that are not a valid MDP message: logged and dropped; a known worker that sends them is
    /// disconnected (its requests re-queued), since nothing it says can be trusted any more.
    public mutating func receivedInvalid(from sender: Frame, reason: String, now: Duration) -> [BrokerAction] {
        var actions: [BrokerAction] = [.event(.protocolViolation(peer: sender, reason: reason))]
        if workers[sender] != nil {
            actions.append(.send(BrokerOutbound.disconnect(to: sender)))
            removeWorker(sender, loss: .misbehaved, now: now, into: &actions)
        }
        settle(now: now, into: &actions)
        return actions
    }

    /// The socket could not route `frames` to their peer (`frames[0]`: its connection is gone). A worker is
    /// forgotten and its requests re-queued; for a client there is nothing left to do.
    ///
    /// A REQUEST that could not be sent never reached the worker, so it cannot be what killed it: it goes back
    /// without cost (a draining worker's connection often closes just as a request is sent to it). What the worker
    /// held before was delivered, and is treated as lost with a vanished worker.
    public mutating func peerUnreachable(_ frames: [Frame], now: Duration) -> [BrokerAction] {
        guard let peer = frames.first, let worker = workers[peer] else { return [] }
        var actions: [BrokerAction] = [.event(.workerDisconnected(worker: peer, service: worker.service))]
        if frames.count > 4, frames[3] == WorkerCommand.request.frame, let token = DispatchToken(frame: frames[4]),
            let undelivered = worker.held.first(where: { $0.token == token })
        {
            release(token, from: peer)
            requeue(undelivered.request, after: .departed, now: now, into: &actions)
        }
        removeWorker(peer, loss: .vanished, now: now, into: &actions)
        settle(now: now, into: &actions)
        return actions
    }

    /// Sends due heartbeats, expires silent workers, and answers requests that waited or were held too long.
    public mutating func tick(now: Duration) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        if now >= nextHeartbeatAt {
            for id in workers.keys { actions.append(.send(BrokerOutbound.heartbeat(to: id))) }
            nextHeartbeatAt = now + configuration.heartbeatInterval
        }
        for (id, worker) in workers where worker.expiresAt <= now {
            actions.append(.event(.workerExpired(worker: id, service: worker.service)))
            removeWorker(id, loss: .vanished, now: now, into: &actions)
        }
        for (id, worker) in workers {
            guard let overdue = worker.held.first(where: { now - $0.sentAt >= configuration.requestTimeout }) else {
                continue
            }
            // Answered here, not re-queued: a request that hangs one worker would hang the next one too. The
            // connection's other requests (if it holds several) go back to the queue when it is dropped.
            let held = now - overdue.sentAt
            release(overdue.token, from: id)
            fail(overdue.request, .workerTimedOut(held: held), into: &actions)
            actions.append(.event(.workerTimedOut(worker: id, service: worker.service, held: held)))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            removeWorker(id, loss: .misbehaved, now: now, into: &actions)
        }
        for name in services.keys {
            while let front = services[name]!.queue.first, now - front.arrivedAt >= configuration.queueTimeout {
                services[name]!.queue.removeFirst()
                fail(front, .noWorker(waited: now - front.arrivedAt), into: &actions)
            }
            forgetIfUnused(name)
        }
        settle(now: now, into: &actions)
        return actions
    }

    /// When `tick` next has work: the next heartbeat, the earliest queue expiry or request timeout.
    public func nextTimer() -> Duration {
        var next = nextHeartbeatAt
        for worker in workers.values {
            for assignment in worker.held { next = min(next, assignment.sentAt + configuration.requestTimeout) }
        }
        for service in services.values {
            if let front = service.queue.first { next = min(next, front.arrivedAt + configuration.queueTimeout) }
        }
        return next
    }

    // MARK: Shutdown

    /// Stops accepting requests (new ones are answered `unavailable`); queued and running ones continue.
    public mutating func beginDraining() {
        isDraining = true
    }

    /// Whether nothing is queued or running: a draining broker can stop.
    public var isIdle: Bool {
        services.values.allSatisfy { $0.queue.isEmpty } && workers.values.allSatisfy { $0.held.isEmpty }
    }

    /// Ends the broker's work: every queued or running request is answered `unavailable` (shutting down) and
    /// every worker is told to DISCONNECT.
    public mutating func finish() -> [BrokerAction] {
        var actions: [BrokerAction] = []
        for name in services.keys {
            while let request = services[name]!.queue.popFirst() { fail(request, .shuttingDown, into: &actions) }
        }
        for (id, worker) in workers {
            for assignment in worker.held { fail(assignment.request, .shuttingDown, into: &actions) }
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
        }
        workers.removeAll()
        services.removeAll()
        instances.removeAll()
        return actions
    }
}
