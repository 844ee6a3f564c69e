import DequeModule
import ZeroMQ

extension BrokerStateMachine {
    mutating func workerReady(
        _ id: Frame, service name: String, capabilities: WorkerCapabilities?, now: Duration,
        into actions: inout [BrokerAction]
    ) {
        if let worker = workers.slot(of: id) {
            // RFC 7: READY from a worker that is already registered is a protocol error.
            actions.append(.event(.protocolViolation(peer: id, reason: "READY from a registered worker")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            removeWorker(worker, loss: .misbehaved, now: now, into: &actions)
            return
        }
        if name.hasPrefix(MDP.managementPrefix) {
            actions.append(.event(.protocolViolation(peer: id, reason: "a worker cannot serve \(name)")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            return
        }
        // Counted among served services only: names that clients alone invented never take a worker's place.
        if (services[key: name]?.workerCount ?? 0) == 0 && servedServiceCount >= configuration.maxServices {
            actions.append(.event(.protocolViolation(peer: id, reason: "service limit reached")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            return
        }
        let service = services.slot(of: name) ?? services.insert(Service(name: name), for: name)
        let key = capabilities?.instance.map(Instance.process) ?? .connection(id)
        let instance = instances.slot(of: key) ?? instances.insert(InstanceState(), for: key)
        instances[instance].connections += 1
        if instances[instance].name == nil { instances[instance].name = capabilities?.name }
        let credit = min(max(1, capabilities?.credit ?? 1), configuration.maxWorkerCredit)
        let worker = workers.insert(
            Worker(
                id: id, service: service, instance: instance, credit: credit,
                expiresAt: now + workerExpiry),
            for: id)
        services[service].workerCount += 1
        services[service].lastWorkerLeftAt = nil
        services[service].available.append(worker)
        actions.append(.event(.workerReady(worker: id, service: name)))
        // A heartbeat at once acknowledges the READY: the worker knows it is registered now (its `/readyz`, and
        // its `registered` line), not at the broker's next heartbeat, up to an interval later. RFC 7 lets a broker
        // send HEARTBEAT at any time.
        actions.append(.send(BrokerOutbound.heartbeat(to: id)))
        dispatch(service, now: now, into: &actions)
    }

    mutating func workerReply(
        from id: Frame, address: Frame, body: consuming [Frame], now: Duration, into actions: inout [BrokerAction]
    ) {
        guard let worker = workers.slot(of: id) else {
            // A worker the broker gave up on (expired, timed out) or never knew: its requests were, or will be,
            // answered by another worker or by the broker. RFC 7: answer an unknown worker with DISCONNECT.
            actions.append(.event(.replyDropped(worker: id, reason: "reply from an unregistered worker")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            return
        }
        let token = DispatchToken(frame: address)
        let position = token.flatMap { token in workers[worker].held.firstIndex { $0.token == token } }
        var refusal: ReplyRefusal?
        // One scan of the reply's head: its correlation key and, for an error response, its code.
        let head = envelope.replyHead(of: body)
        if let position {
            if let expected = workers[worker].held[position].request.correlation, let key = head.correlationKey,
                !key.elementsEqual(expected)
            {
                refusal = .correlationMismatch
            }
        } else {
            refusal = .notHeld
        }
        let service = workers[worker].service
        if let refusal {
            // Delivered nowhere: the connection is dropped and what it held goes to another worker.
            actions.append(.event(.replyRefused(worker: id, service: services[service].name, reason: refusal)))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            removeWorker(worker, loss: .misbehaved, now: now, into: &actions)
            return
        }
        workers[worker].expiresAt = now + workerExpiry
        let wasFull = workers[worker].held.count >= workers[worker].credit
        let assignment = release(token!, from: worker)!
        if wasFull && workers[worker].hasRoom { services[service].available.append(worker) }
        let request = assignment.request
        actions.append(
            .send(
                BrokerOutbound.forwardedReply(
                    to: request.client, service: services[service].nameFrame, body: consume body)))
        if tracesEveryRequest {
            traceIfAny(request.body, queued: assignment.sentAt - request.arrivedAt, into: &actions)
        }
        actions.append(
            .event(
                .replyDelivered(
                    service: request.serviceName, latency: now - request.arrivedAt, attempts: request.attempts)))
        workers[worker].served += 1
        if let code = head.errorCode {
            workers[worker].errors += 1
            actions.append(
                .event(.errorReplied(service: request.serviceName, code: String(decoding: code, as: UTF8.self))))
        }
        dispatch(service, now: now, into: &actions)
    }

    /// Forgets the assignment `token` of the connection in slot `worker` and returns it. When that ends an
    /// isolation, or empties an instance reserved for a suspect, other services' queues may go on: `settle`
    /// dispatches them.
    @discardableResult
    mutating func release(_ token: DispatchToken, from worker: Int) -> Assignment? {
        guard let position = workers[worker].held.firstIndex(where: { $0.token == token }) else { return nil }
        let assignment = workers[worker].held.remove(at: position)
        let instance = workers[worker].instance
        instances[instance].held -= 1
        if assignment.request.isSuspect {
            instances[instance].isIsolated = false
            instanceFreed = true
        }
        if instances[instance].held == 0 && instances[instance].reservedFor != nil { instanceFreed = true }
        return assignment
    }

    /// Ends the handling of one input: when an instance came free during it, every queue that an isolation or a
    /// reservation held back gets its chance.
    mutating func settle(now: Duration, into actions: inout [BrokerAction]) {
        guard instanceFreed else { return }
        instanceFreed = false
        for service in services.slots where !services[service].queue.isEmpty {
            dispatch(service, now: now, into: &actions)
        }
    }

    /// Where in `service`'s available connections the head of its queue may go: a connection with room on a
    /// process that accepts it (`InstanceState.accepts`).
    func availablePosition(forSuspect suspect: Bool, in service: Int) -> Int? {
        services[service].available.firstIndex { worker in
            instances[workers[worker].instance].accepts(suspect: suspect)
        }
    }

    /// Keeps one worker process of `service` from taking new work, so that it empties for the suspect at the head
    /// of the queue: the one with least in flight (then the lowest slot), unless one is reserved already.
    mutating func reserveInstance(for service: Int) {
        if services[service].reservation != nil { return }
        var choice: Int?
        for worker in workers.allValues where worker.service == service {
            let state = instances[worker.instance]
            guard !state.isIsolated, !state.isDeparting, state.reservedFor == nil else { continue }
            if let current = choice, (instances[current].held, current) <= (state.held, worker.instance) { continue }
            choice = worker.instance
        }
        services[service].reservation = choice
        if let choice { instances[choice].reservedFor = service }
    }

    /// Lets the process reserved for `service`'s suspect take work again, when no suspect waits at the head (or
    /// when the reserved process just took the suspect: `evenForASuspect`).
    /// - Returns: whether a process was freed.
    @discardableResult
    mutating func endReservation(of service: Int, evenForASuspect: Bool = false) -> Bool {
        guard let reserved = services[service].reservation else { return false }
        if !evenForASuspect, services[service].queue.first?.isSuspect == true { return false }
        services[service].reservation = nil
        instances[reserved].reservedFor = nil
        instanceFreed = true
        return true
    }

    /// Forgets the worker connection in `slot`; the requests it held go back to their queue, or are answered when
    /// they may not be tried again (see `requeue(_:after:from:now:into:)`).
    mutating func removeWorker(_ slot: Int, loss: WorkerLoss, now: Duration, into actions: inout [BrokerAction]) {
        let instance = instances.key(of: workers[slot].instance)
        while let token = workers[slot].held.first?.token {
            let assignment = release(token, from: slot)!
            requeue(
                assignment.request, after: loss, from: instance, countsAsPoison: !assignment.sentIntoSilence, now: now,
                into: &actions)
        }
        let worker = workers.remove(slot)
        services[worker.service].workerCount -= 1
        if services[worker.service].workerCount == 0 {
            services[worker.service].lastWorkerLeftAt = now
            noteDeadline(now + configuration.serviceGrace)
        }
        if let index = services[worker.service].available.firstIndex(of: slot) {
            services[worker.service].available.remove(at: index)
        }
        instances[worker.instance].connections -= 1
        if instances[worker.instance].connections == 0 {
            // A reservation goes with it: the suspect it was kept for must look for another process.
            if let reservedFor = instances[worker.instance].reservedFor {
                services[reservedFor].reservation = nil
                instanceFreed = true
            }
            instances.remove(worker.instance)
        }
        dispatch(worker.service, now: now, into: &actions)
        forgetIfUnused(worker.service, now: now)
    }
}

/// Why a worker's REPLY was not delivered (the worker is disconnected for it).
package enum ReplyRefusal: String, Sendable, Hashable, CustomStringConvertible {
    /// Its address frame names no request that this connection holds: a duplicate, a late reply or invented bytes.
    case notHeld = "not_held"
    /// Its correlation key (the v1 `id`) differs from that of the request its address names.
    case correlationMismatch = "id_mismatch"

    package var description: String {
        switch self {
        case .notHeld: "its address names no request this worker holds"
        case .correlationMismatch: "its id differs from the id of the request it answers"
        }
    }
}
