import DequeModule
import ZeroMQ

/// The Majordomo broker's logic with no sockets and no clock: inputs are decoded messages and the current
/// monotonic time, outputs are `BrokerAction`s for the socket loop to execute.
///
/// - Requests queue per service and go to the least-recently-used idle worker of that service.
/// - A worker that expires, disconnects or breaks the protocol while holding a request gives the request back to
///   the front of its queue (bounded by `maxAttempts`); a reply from a worker that no longer holds the request
///   is dropped, so every request is answered exactly once.
/// - Queues are bounded in length and waiting time; the client always gets an answer.
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
        var attempts = 0
    }

    struct Worker: Sendable {
        let id: Frame
        let service: String
        var expiresAt: Duration
        var assignment: Request?
        /// When `assignment` was sent to the worker.
        var assignedAt: Duration = .zero
    }

    struct Service: Sendable {
        var queue = Deque<Request>()
        /// Idle workers, least recently used first.
        var idle = Deque<Frame>()
        var workerCount = 0
    }

    public let configuration: BrokerConfiguration
    let failureReplies: any FailureReplyEncoding
    var workers: [Frame: Worker] = [:]
    var services: [String: Service] = [:]
    var nextSequence: UInt64 = 0
    var nextHeartbeatAt: Duration
    /// Set by `beginDraining`: new requests are refused, queued ones still served.
    public private(set) var isDraining = false

    public init(configuration: BrokerConfiguration, failureReplies: any FailureReplyEncoding, now: Duration) {
        self.configuration = configuration
        self.failureReplies = failureReplies
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
        case .ready(let service):
            workerReady(sender, service: service, now: now, into: &actions)
        case .reply(let client, let body):
            workerReply(from: sender, client: client, body: body, now: now, into: &actions)
        case .heartbeat:
            if workers[sender] != nil {
                workers[sender]!.expiresAt = now + configuration.workerExpiry
            } else {
                actions.append(.send(BrokerOutbound.disconnect(to: sender)))
            }
        case .disconnect:
            if let worker = workers[sender] {
                actions.append(.event(.workerDisconnected(worker: sender, service: worker.service)))
                removeWorker(sender, now: now, into: &actions)
            }
        }
        return actions
    }

    /// Handles frames that are not a valid MDP message: logged and dropped; a known worker that sends them is
    /// disconnected (its request re-queued), since nothing it says can be trusted any more.
    public mutating func receivedInvalid(from sender: Frame, reason: String, now: Duration) -> [BrokerAction] {
        var actions: [BrokerAction] = [.event(.protocolViolation(peer: sender, reason: reason))]
        if workers[sender] != nil {
            actions.append(.send(BrokerOutbound.disconnect(to: sender)))
            removeWorker(sender, now: now, into: &actions)
        }
        return actions
    }

    /// The socket could not route to `peer` (it disconnected): a worker is forgotten and its request re-queued;
    /// for a client there is nothing left to do.
    public mutating func peerUnreachable(_ peer: Frame, now: Duration) -> [BrokerAction] {
        guard let worker = workers[peer] else { return [] }
        var actions: [BrokerAction] = [.event(.workerDisconnected(worker: peer, service: worker.service))]
        removeWorker(peer, now: now, into: &actions)
        return actions
    }

    /// Sends due heartbeats, expires silent workers and requests that waited too long.
    public mutating func tick(now: Duration) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        if now >= nextHeartbeatAt {
            for id in workers.keys { actions.append(.send(BrokerOutbound.heartbeat(to: id))) }
            nextHeartbeatAt = now + configuration.heartbeatInterval
        }
        for (id, worker) in workers where worker.expiresAt <= now {
            actions.append(.event(.workerExpired(worker: id, service: worker.service)))
            removeWorker(id, now: now, into: &actions)
        }
        for (id, worker) in workers {
            guard let request = worker.assignment, now - worker.assignedAt >= configuration.requestTimeout else {
                continue
            }
            // Answered here, not re-queued: a request that hangs one worker would hang the next one too.
            workers[id]!.assignment = nil
            fail(request, .workerTimedOut(held: now - worker.assignedAt), into: &actions)
            actions.append(.event(.workerTimedOut(worker: id, service: worker.service, held: now - worker.assignedAt)))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            removeWorker(id, now: now, into: &actions)
        }
        for name in services.keys {
            while let front = services[name]!.queue.first, now - front.arrivedAt >= configuration.queueTimeout {
                services[name]!.queue.removeFirst()
                fail(front, .noWorker(waited: now - front.arrivedAt), into: &actions)
            }
            forgetIfUnused(name)
        }
        return actions
    }

    /// When `tick` next has work: the next heartbeat, the earliest queue expiry or request timeout.
    public func nextTimer() -> Duration {
        var next = nextHeartbeatAt
        for worker in workers.values where worker.assignment != nil {
            next = min(next, worker.assignedAt + configuration.requestTimeout)
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
        services.values.allSatisfy { $0.queue.isEmpty } && workers.values.allSatisfy { $0.assignment == nil }
    }

    /// Ends the broker's work: every queued or running request is answered `unavailable` (shutting down) and
    /// every worker is told to DISCONNECT.
    public mutating func finish() -> [BrokerAction] {
        var actions: [BrokerAction] = []
        for name in services.keys {
            while let request = services[name]!.queue.popFirst() { fail(request, .shuttingDown, into: &actions) }
        }
        for (id, worker) in workers {
            if let request = worker.assignment { fail(request, .shuttingDown, into: &actions) }
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
        }
        workers.removeAll()
        services.removeAll()
        return actions
    }
}
