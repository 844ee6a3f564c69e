import DequeModule
import ZeroMQ

/// The Majordomo broker's logic with no sockets and no clock: inputs are decoded messages and the current
/// monotonic time, outputs are `BrokerAction`s for the socket loop to execute.
///
/// - Requests queue per service and go to the least-recently-used worker connection of that service with room:
///   one request at a time for an MDP/0.1 worker, up to its credit for a Tally worker (`WorkerCapabilities`).
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
/// Workers, services and worker processes live in `SlotTable`s: a message hashes its sender once, and everything
/// after is by slot number. Time is a `Duration` since an arbitrary origin (the runtime passes time since start),
/// so tests drive it deterministically.
package struct BrokerStateMachine: Sendable {
    struct Request: Sendable {
        let sequence: UInt64
        let client: Frame
        /// The service's slot in `services`; it lives as long as the request (a service with queued or held
        /// requests is never forgotten).
        let service: Int
        let serviceName: String
        let body: [Frame]
        let arrivedAt: Duration
        /// The application's key that a reply must echo (`ApplicationEnvelope.correlationKey`).
        let correlation: ArraySlice<UInt8>?
        /// Dispatches so far.
        var attempts = 0
        /// Worker processes that vanished while holding it (not counting clean goodbyes or protocol violations).
        var workersLost = 0
        /// The process it was last lost with. The connections of one process vanish together (it died, or it went
        /// silent and came back on new connections): losing the request on another connection of that process is
        /// the same loss, not a second process that it killed.
        var lostWith: Instance?

        /// Lost a worker once already: it runs alone on a worker process, so that losing that one too proves it.
        var isSuspect: Bool { workersLost > 0 }
    }

    /// One request sent to a worker connection and not yet answered.
    struct Assignment: Sendable {
        let token: DispatchToken
        let request: Request
        let sentAt: Duration
        /// Whether the worker had been silent for longer than it should be when it was given the request: a loss of
        /// it then says nothing about the request (its host or the path to it had gone quiet already, as when the
        /// broker is cut off from every worker at once), so it does not count the request as a poison.
        let sentIntoSilence: Bool
    }

    /// A worker process, or a plain MDP/0.1 connection that did not name one: the unit that dies at once.
    enum Instance: Hashable, Sendable {
        case process(String)
        case connection(Frame)
    }

    struct InstanceState: Sendable {
        /// What the process calls itself (`WorkerCapabilities.name`), for the console; `nil` when it says nothing.
        var name: String?
        var connections = 0
        /// Requests held by all its connections.
        var held = 0
        /// Holds a suspect request: nothing else is sent to it until that one is answered or lost.
        var isIsolated = false
        /// The service (slot) whose suspect this process is kept free of new work for, so that it empties.
        var reservedFor: Int?
        /// One of its connections said DISCONNECT: a Tally worker says it only when the process leaves (draining
        /// on SIGTERM), so its other connections get no new work while they finish and say goodbye too.
        var isDeparting = false
        /// Whether a request may go to it: a suspect only where nothing else runs, anything else where no
        /// isolation, departure or reservation stands in the way.
        func accepts(suspect: Bool) -> Bool {
            if isIsolated || isDeparting { return false }
            return suspect ? held == 0 : reservedFor == nil
        }
    }

    struct Worker: Sendable {
        let id: Frame
        /// Slots of its service and of its process.
        let service: Int
        let instance: Int
        /// Requests the connection may hold at once (1 for MDP/0.1).
        let credit: Int
        var expiresAt: Duration
        var held: [Assignment] = []
        /// When a send to it failed: it gets no new work, and is given up after `unreachableGrace`.
        var unreachableSince: Duration?
        /// Replies delivered from it, and how many of them were error responses (`ReplyHead.errorCode`): for the
        /// console, one increment per reply.
        var served = 0
        var errors = 0

        var hasRoom: Bool { held.count < credit && unreachableSince == nil }
    }

    struct Service: Sendable {
        let name: String
        /// The name as the frame every reply of the service carries, made once.
        let nameFrame: Frame
        var queue = Deque<Request>()
        /// Slots of the connections with room for another request, least recently used first.
        var available = Deque<Int>()
        var workerCount = 0
        /// When its last worker left; `nil` while it has workers, or if it never had any.
        var lastWorkerLeftAt: Duration?
        /// The worker process (slot) kept free of new work for the suspect at the head of the queue, if any.
        var reservation: Int?

        init(name: String) {
            self.name = name
            self.nameFrame = Frame(name)
        }
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

    package let configuration: BrokerConfiguration
    /// `configuration.workerExpiry` and `longSilence`, computed once: a `Duration` times an `Int` goes through 128-bit
    /// arithmetic, which every reply and dispatch would otherwise pay for.
    let workerExpiry: Duration
    /// How long a worker may be silent before a request sent to it counts as sent into silence
    /// (`Assignment.sentIntoSilence`): one and a half heartbeat intervals.
    let longSilence: Duration
    let envelope: any ApplicationEnvelope
    /// `envelope.tracesEveryRequest`, read once.
    let tracesEveryRequest: Bool
    var workers = SlotTable<Frame, Worker>()
    var services = SlotTable<String, Service>()
    var instances = SlotTable<Instance, InstanceState>()
    var nextSequence: UInt64 = 0
    var nextToken: UInt64 = 0
    var nextHeartbeatAt: Duration
    /// When the broker started: within `serviceGrace` of it, requests for services without workers wait for them.
    let startedAt: Duration
    /// Set when a release ended an isolation or emptied a reserved instance, until `settle` acts on it.
    var instanceFreed = false
    /// Set by `beginDraining`: new requests are refused, queued ones still served.
    package private(set) var isDraining = false
    /// No later than `nextTimer()`: what `nextTimer()` said when `tick` last ran, lowered by every deadline made
    /// since (`noteDeadline`). Deadlines that went away since leave it early, which costs a `tick` with nothing to
    /// do, never a late one. See `nextTick`.
    private var earliestDeadline: Duration

    package init(configuration: BrokerConfiguration, envelope: any ApplicationEnvelope, now: Duration) {
        self.configuration = configuration
        self.workerExpiry = configuration.workerExpiry
        self.longSilence = configuration.heartbeatInterval * 3 / 2
        self.envelope = envelope
        self.tracesEveryRequest = envelope.tracesEveryRequest
        self.nextHeartbeatAt = now + configuration.heartbeatInterval
        self.startedAt = now
        self.earliestDeadline = nextHeartbeatAt
    }

    // MARK: Inputs

    /// Handles one decoded message.
    package mutating func received(_ inbound: BrokerInbound, now: Duration) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        received(inbound, now: now, into: &actions)
        return actions
    }

    /// Handles one decoded message, appending what it asks for to `actions`: the socket loop keeps one buffer for
    /// every message of a wake-up, and sends them all at the end of it (see `Broker+Loop`).
    package mutating func received(
        _ inbound: consuming BrokerInbound, now: Duration, into actions: inout [BrokerAction]
    ) {
        let sender = inbound.sender
        // Consumed, so that a reply's body is the only reference to its frames and is forwarded in their storage.
        let message = (consume inbound).message
        switch consume message {
        case .request(let service, let body):
            clientRequest(from: sender, service: service, body: body, now: now, into: &actions)
        case .ready(let service, let capabilities):
            workerReady(sender, service: service, capabilities: capabilities, now: now, into: &actions)
        case .reply(let address, let body):
            workerReply(from: sender, address: address, body: body, now: now, into: &actions)
        case .heartbeat:
            if let worker = workers.slot(of: sender) {
                workers[worker].expiresAt = now + workerExpiry
            } else {
                actions.append(.send(BrokerOutbound.disconnect(to: sender)))
            }
        case .disconnect:
            if let worker = workers.slot(of: sender) {
                if case .process = instances.key(of: workers[worker].instance) {
                    instances[workers[worker].instance].isDeparting = true
                }
                actions.append(.event(.workerDisconnected(worker: sender, service: serviceName(of: worker))))
                removeWorker(worker, loss: .departed, now: now, into: &actions)
            }
        }
        settle(now: now, into: &actions)
    }

    /// Handles frames that are not a valid MDP message: logged and dropped; a known worker that sends them is
    /// disconnected (its requests re-queued), since nothing it says can be trusted any more.
    package mutating func receivedInvalid(from sender: Frame, reason: String, now: Duration) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        receivedInvalid(from: sender, reason: reason, now: now, into: &actions)
        return actions
    }

    /// `receivedInvalid(from:reason:now:)`, appending to the socket loop's buffer.
    package mutating func receivedInvalid(
        from sender: Frame, reason: String, now: Duration, into actions: inout [BrokerAction]
    ) {
        actions.append(.event(.protocolViolation(peer: sender, reason: reason)))
        if let worker = workers.slot(of: sender) {
            actions.append(.send(BrokerOutbound.disconnect(to: sender)))
            removeWorker(worker, loss: .misbehaved, now: now, into: &actions)
        }
        settle(now: now, into: &actions)
    }

    /// The socket could not route `frames` to their peer (`frames[0]`: its connection is gone). For a client there
    /// is nothing left to do. A worker gets no new work, and is given up after `unreachableGrace` (see `tick`):
    /// libzmq reports the closed connection on the next send, which may come before the broker has read what the
    /// worker sent last — its final replies, delivered normally if read in time, or its DISCONNECT, a goodbye
    /// rather than a loss.
    ///
    /// A REQUEST that could not be sent never reached the worker, so it cannot be what killed it: it goes back
    /// without cost.
    package mutating func peerUnreachable(_ frames: [Frame], now: Duration) -> [BrokerAction] {
        guard let peer = frames.first, let worker = workers.slot(of: peer) else { return [] }
        var actions: [BrokerAction] = []
        if frames.count > 4, frames[3] == WorkerCommand.request.frame, let token = DispatchToken(frame: frames[4]),
            let undelivered = release(token, from: worker)
        {
            requeue(undelivered.request, after: .departed, from: nil, now: now, into: &actions)
        }
        if workers[worker].unreachableSince == nil {
            workers[worker].unreachableSince = now
            noteDeadline(now + configuration.unreachableGrace)
            let service = workers[worker].service
            if let index = services[service].available.firstIndex(of: worker) {
                services[service].available.remove(at: index)
            }
            dispatch(service, now: now, into: &actions)
        }
        settle(now: now, into: &actions)
        return actions
    }

    /// Sends due heartbeats, expires silent workers, and answers requests that waited or were held too long.
    package mutating func tick(now: Duration) -> [BrokerAction] {
        var actions: [BrokerAction] = []
        if now >= nextHeartbeatAt {
            for worker in workers.allValues where worker.unreachableSince == nil {
                actions.append(.send(BrokerOutbound.heartbeat(to: worker.id)))
            }
            nextHeartbeatAt = now + configuration.heartbeatInterval
        }
        for worker in workers.slots {
            if let since = workers[worker].unreachableSince, now - since >= configuration.unreachableGrace {
                actions.append(
                    .event(.workerDisconnected(worker: workers[worker].id, service: serviceName(of: worker))))
                removeWorker(worker, loss: .vanished, now: now, into: &actions)
            } else if workers[worker].expiresAt <= now {
                actions.append(.event(.workerExpired(worker: workers[worker].id, service: serviceName(of: worker))))
                removeWorker(worker, loss: .vanished, now: now, into: &actions)
            }
        }
        for worker in workers.slots {
            guard let overdue = workers[worker].held.first(where: { now - $0.sentAt >= configuration.requestTimeout })
            else { continue }
            // Answered here, not re-queued: a request that hangs one worker would hang the next one too. The
            // connection's other requests (if it holds several) go back to the queue when it is dropped.
            let held = now - overdue.sentAt
            let id = workers[worker].id
            release(overdue.token, from: worker)
            fail(overdue.request, .workerTimedOut(held: held), into: &actions)
            traceIfAny(overdue.request.body, into: &actions)
            actions.append(.event(.workerTimedOut(worker: id, service: serviceName(of: worker), held: held)))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            removeWorker(worker, loss: .misbehaved, now: now, into: &actions)
        }
        for service in services.slots {
            while let front = services[service].queue.first, now - front.arrivedAt >= configuration.queueTimeout {
                services[service].queue.removeFirst()
                fail(front, .noWorker(waited: now - front.arrivedAt), into: &actions)
            }
            forgetIfUnused(service, now: now)
        }
        settle(now: now, into: &actions)
        earliestDeadline = nextTimer()
        return actions
    }

    /// When the socket loop must call `tick` next, at no cost: never later than `nextTimer()`, and equal to it right
    /// after a `tick`. `nextTimer()` walks every worker's requests and every queue, which the loop cannot afford on
    /// every wake-up under load (a hundred requests in flight are a hundred assignments to visit each time).
    package var nextTick: Duration { earliestDeadline }

    /// Records a deadline just made (a request queued or sent, a worker found unreachable or gone), so that
    /// `nextTick` is never later than it.
    mutating func noteDeadline(_ deadline: Duration) {
        if deadline < earliestDeadline { earliestDeadline = deadline }
    }

    /// When `tick` next has work: the next heartbeat, the earliest queue expiry or request timeout.
    package func nextTimer() -> Duration {
        var next = nextHeartbeatAt
        for worker in workers.allValues {
            for assignment in worker.held { next = min(next, assignment.sentAt + configuration.requestTimeout) }
            if let since = worker.unreachableSince { next = min(next, since + configuration.unreachableGrace) }
        }
        for service in services.allValues {
            if let front = service.queue.first { next = min(next, front.arrivedAt + configuration.queueTimeout) }
            if let left = service.lastWorkerLeftAt, service.queue.isEmpty {
                next = min(next, left + configuration.serviceGrace)
            }
        }
        return next
    }

    // MARK: Shutdown

    /// Stops accepting requests (new ones are answered `unavailable`); queued and running ones continue.
    package mutating func beginDraining() {
        isDraining = true
    }

    /// Whether nothing is queued or running: a draining broker can stop.
    package var isIdle: Bool {
        services.allValues.allSatisfy { $0.queue.isEmpty } && workers.allValues.allSatisfy { $0.held.isEmpty }
    }

    /// Ends the broker's work: every queued or running request is answered `unavailable` (shutting down) and
    /// every worker is told to DISCONNECT.
    package mutating func finish() -> [BrokerAction] {
        var actions: [BrokerAction] = []
        for service in services.slots {
            while let request = services[service].queue.popFirst() { fail(request, .shuttingDown, into: &actions) }
        }
        for worker in workers.allValues {
            for assignment in worker.held { fail(assignment.request, .shuttingDown, into: &actions) }
            actions.append(.send(BrokerOutbound.disconnect(to: worker.id)))
        }
        workers.removeAll()
        services.removeAll()
        instances.removeAll()
        return actions
    }

    /// The name of the service of the worker in `slot`.
    func serviceName(of worker: Int) -> String { services[workers[worker].service].name }
}
