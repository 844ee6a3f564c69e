import DequeModule
import ZeroMQ

extension BrokerStateMachine {
    mutating func workerReady(
        _ id: Frame, service: String, capabilities: WorkerCapabilities?, now: Duration,
        into actions: inout [BrokerAction]
    ) {
        if workers[id] != nil {
            // RFC 7: READY from a worker that is already registered is a protocol error.
            actions.append(.event(.protocolViolation(peer: id, reason: "READY from a registered worker")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            removeWorker(id, loss: .misbehaved, now: now, into: &actions)
            return
        }
        if service.hasPrefix(MDP.managementPrefix) {
            actions.append(.event(.protocolViolation(peer: id, reason: "a worker cannot serve \(service)")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            return
        }
        // Counted among served services only: names that clients alone invented never take a worker's place.
        if (services[service]?.workerCount ?? 0) == 0 && servedServiceCount >= configuration.maxServices {
            actions.append(.event(.protocolViolation(peer: id, reason: "service limit reached")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            return
        }
        if services[service] == nil { services[service] = Service() }
        let instance = capabilities?.instance.map(Instance.process) ?? .connection(id)
        let credit = min(max(1, capabilities?.credit ?? 1), configuration.maxWorkerCredit)
        workers[id] = Worker(
            id: id, service: service, instance: instance, credit: credit, expiresAt: now + configuration.workerExpiry)
        instances[instance, default: InstanceState()].connections += 1
        services[service]!.workerCount += 1
        services[service]!.available.append(id)
        actions.append(.event(.workerReady(worker: id, service: service)))
        dispatch(service, now: now, into: &actions)
    }

    mutating func workerReply(
        from id: Frame, address: Frame, body: [Frame], now: Duration, into actions: inout [BrokerAction]
    ) {
        guard let worker = workers[id] else {
            // A worker the broker gave up on (expired, timed out) or never knew: its requests were, or will be,
            // answered by another worker or by the broker. RFC 7: answer an unknown worker with DISCONNECT.
            actions.append(.event(.replyDropped(worker: id, reason: "reply from an unregistered worker")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            return
        }
        let refusal: ReplyRefusal?
        let position = DispatchToken(frame: address).flatMap { token in worker.held.firstIndex { $0.token == token } }
        if let position {
            let expected = worker.held[position].request.correlation
            let mismatch = expected.flatMap { key in envelope.correlationKey(of: body).map { $0 != key } } ?? false
            refusal = mismatch ? .correlationMismatch : nil
        } else {
            refusal = .notHeld
        }
        if let refusal {
            // Delivered nowhere: the connection is dropped and what it held goes to another worker.
            actions.append(.event(.replyRefused(worker: id, service: worker.service, reason: refusal)))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            removeWorker(id, loss: .misbehaved, now: now, into: &actions)
            return
        }
        let assignment = worker.held[position!]
        workers[id]!.expiresAt = now + configuration.workerExpiry
        let request = assignment.request
        let wasFull = !worker.hasRoom
        release(assignment.token, from: id)
        if wasFull { services[worker.service]!.available.append(id) }
        actions.append(.send(BrokerOutbound.clientReply(to: request.client, service: request.service, body: body)))
        actions.append(
            .event(
                .replyDelivered(service: request.service, latency: now - request.arrivedAt, attempts: request.attempts))
        )
        dispatch(worker.service, now: now, into: &actions)
    }

    /// Forgets the assignment `token` of connection `id`. When that ends an isolation, or empties an instance
    /// reserved for a suspect, other services' queues may go on: `settle` dispatches them.
    mutating func release(_ token: DispatchToken, from id: Frame) {
        guard let position = workers[id]?.held.firstIndex(where: { $0.token == token }) else { return }
        let assignment = workers[id]!.held.remove(at: position)
        let instance = workers[id]!.instance
        instances[instance]!.held -= 1
        if assignment.request.isSuspect {
            instances[instance]!.isIsolated = false
            instanceFreed = true
        }
        if instances[instance]!.held == 0 && instances[instance]!.reservedFor != nil { instanceFreed = true }
    }

    /// Ends the handling of one input: when an instance came free during it, every queue that an isolation or a
    /// reservation held back gets its chance.
    mutating func settle(now: Duration, into actions: inout [BrokerAction]) {
        guard instanceFreed else { return }
        instanceFreed = false
        for name in services.keys where services[name]?.queue.isEmpty == false {
            dispatch(name, now: now, into: &actions)
        }
    }

    /// Where in `service`'s available connections `request` may go: a connection with room on an instance that
    /// is neither isolated, departing nor reserved (for a suspect: on an instance holding nothing at all).
    func availablePosition(for request: Request, in service: String) -> Int? {
        services[service]!.available.firstIndex { id in
            let state = instances[workers[id]!.instance]!
            if state.isIsolated || state.isDeparting { return false }
            if request.isSuspect { return state.held == 0 }
            return state.reservedFor == nil
        }
    }

    /// Keeps one worker process of `service` from taking new work, so that it empties for the suspect at the head
    /// of the queue: the one with least in flight, unless one is reserved already.
    mutating func reserveInstance(for service: String) {
        if let reserved = services[service]!.reservation, instances[reserved] != nil { return }
        var candidates: Set<Instance> = []
        for worker in workers.values where worker.service == service { candidates.insert(worker.instance) }
        let choice = candidates.filter {
            !instances[$0]!.isIsolated && !instances[$0]!.isDeparting && instances[$0]!.reservedFor == nil
        }.min { (instances[$0]!.held, "\($0)") < (instances[$1]!.held, "\($1)") }
        services[service]!.reservation = choice
        if let choice { instances[choice]!.reservedFor = service }
    }

    /// Lets the process reserved for `service`'s suspect take work again, when no suspect waits at the head (or
    /// when the reserved process just took the suspect: `evenForASuspect`).
    /// - Returns: whether a process was freed.
    @discardableResult
    mutating func endReservation(of service: String, evenForASuspect: Bool = false) -> Bool {
        guard let reserved = services[service]?.reservation else { return false }
        if !evenForASuspect, services[service]!.queue.first?.isSuspect == true,
            instances[reserved]?.reservedFor == service
        {
            return false
        }
        services[service]!.reservation = nil
        guard instances[reserved]?.reservedFor == service else { return false }
        instances[reserved]!.reservedFor = nil
        instanceFreed = true
        return true
    }

    /// Forgets a worker connection; the requests it held go back to their queue, or are answered when they may
    /// not be tried again (see `requeue(_:after:now:into:)`).
    mutating func removeWorker(_ id: Frame, loss: WorkerLoss, now: Duration, into actions: inout [BrokerAction]) {
        guard let worker = workers[id] else { return }
        for assignment in worker.held {
            release(assignment.token, from: id)
            requeue(assignment.request, after: loss, now: now, into: &actions)
        }
        workers[id] = nil
        services[worker.service]!.workerCount -= 1
        if let index = services[worker.service]!.available.firstIndex(of: id) {
            services[worker.service]!.available.remove(at: index)
        }
        instances[worker.instance]!.connections -= 1
        if instances[worker.instance]!.connections == 0 {
            // A reservation goes with it: the suspect it was kept for must look for another process.
            if instances[worker.instance]!.reservedFor != nil { instanceFreed = true }
            instances[worker.instance] = nil
        }
        dispatch(worker.service, now: now, into: &actions)
        forgetIfUnused(worker.service)
    }
}

/// Why a worker's REPLY was not delivered (the worker is disconnected for it).
public enum ReplyRefusal: String, Sendable, Hashable, CustomStringConvertible {
    /// Its address frame names no request that this connection holds: a duplicate, a late reply or invented bytes.
    case notHeld = "not_held"
    /// Its correlation key (the v1 `id`) differs from that of the request its address names.
    case correlationMismatch = "id_mismatch"

    public var description: String {
        switch self {
        case .notHeld: "its address names no request this worker holds"
        case .correlationMismatch: "its id differs from the id of the request it answers"
        }
    }
}
