import DequeModule
import ZeroMQ

extension BrokerStateMachine {
    mutating func clientRequest(
        from client: Frame, service name: String, body: [Frame], now: Duration, into actions: inout [BrokerAction]
    ) {
        if name.hasPrefix(MDP.managementPrefix) {
            managementRequest(from: client, service: name, body: body, into: &actions)
            return
        }
        if isDraining { return failUnqueued(client, name, body, .shuttingDown, into: &actions) }
        let size = body.reduce(0) { $0 + $1.count }
        if size > configuration.maxBodyBytes {
            let failure = BrokerFailure.payloadTooLarge(bytes: size, limit: configuration.maxBodyBytes)
            return failUnqueued(client, name, body, failure, into: &actions)
        }
        let service: Int
        let existing = services.slot(of: name)
        if !awaitsWorkers(existing, now: now) {
            return failUnqueued(client, name, body, .notServed, into: &actions)
        }
        if let existing {
            service = existing
        } else {
            // Only clients have named this service so far: such names are bounded apart from those workers
            // registered, so that a client inventing names can never keep a worker from registering.
            guard waitingServiceCount < configuration.maxWaitingServices else {
                let failure = BrokerFailure.tooManyServices(limit: configuration.maxWaitingServices)
                return failUnqueued(client, name, body, failure, into: &actions)
            }
            service = services.insert(Service(name: name), for: name)
        }
        guard services[service].queue.count < configuration.maxQueuedPerService else {
            let failure = BrokerFailure.overloaded(limit: configuration.maxQueuedPerService)
            return failUnqueued(client, name, body, failure, into: &actions)
        }
        let request = Request(
            sequence: nextSequence, client: client, service: service, serviceName: name, body: body, arrivedAt: now,
            correlation: envelope.correlationKey(of: body))
        nextSequence &+= 1
        services[service].queue.append(request)
        noteDeadline(now + configuration.queueTimeout)
        dispatch(service, now: now, into: &actions)
    }

    /// Whether a request for the service in `slot` (`nil`: one the broker has no record of) is queued: when the
    /// service has workers, or may have them soon (the broker started, or the service's last worker left, less than
    /// `serviceGrace` ago). Otherwise no worker is coming, and waiting out the queue timeout would only hide it.
    func awaitsWorkers(_ slot: Int?, now: Duration) -> Bool {
        if now - startedAt < configuration.serviceGrace { return true }
        guard let slot else { return false }
        if services[slot].workerCount > 0 { return true }
        return services[slot].lastWorkerLeftAt.map { now - $0 < configuration.serviceGrace } ?? false
    }

    /// Services with queued requests and no worker.
    var waitingServiceCount: Int { services.allValues.count { $0.workerCount == 0 } }

    /// Services with at least one registered worker.
    var servedServiceCount: Int { services.allValues.count { $0.workerCount > 0 } }

    /// Sends queued requests of `service` to connections with room, least recently used first, in queue order.
    ///
    /// The head of the queue goes first: a suspect at the head waits for a worker process with nothing in flight
    /// (one is reserved and left to empty), and the requests behind it wait with it — briefly, since a reserved
    /// process gets no new work — so that a suspect is never starved by the traffic behind it.
    mutating func dispatch(_ service: Int, now: Duration, into actions: inout [BrokerAction]) {
        while let front = services[service].queue.first {
            if let position = availablePosition(forSuspect: front.isSuspect, in: service) {
                let worker = services[service].available.remove(at: position)
                let request = services[service].queue.removeFirst()
                assign(request, to: worker, now: now, into: &actions)
                if workers[worker].hasRoom { services[service].available.append(worker) }
            } else if front.isSuspect {
                reserveInstance(for: service)
                return
            } else if !endReservation(of: service) {
                // Nothing has room (a reservation made for an earlier suspect, now behind this request, was lifted
                // above, and the loop tried again).
                return
            }
        }
        // No suspect waits at the head any more (it went to whichever process emptied first): the reserved one,
        // if any, takes work again.
        endReservation(of: service)
    }

    /// Sends `request` to the connection in slot `worker`.
    mutating func assign(_ request: Request, to worker: Int, now: Duration, into actions: inout [BrokerAction]) {
        var request = request
        request.attempts += 1
        let token = DispatchToken(nextToken)
        nextToken &+= 1
        let instance = workers[worker].instance
        actions.append(
            .send(BrokerOutbound.workerRequest(to: workers[worker].id, client: token.frame, body: request.body)))
        let suspect = request.isSuspect
        let service = request.service
        let heardFrom = workers[worker].expiresAt - workerExpiry
        let sentIntoSilence = now - heardFrom > longSilence
        workers[worker].held.append(
            Assignment(token: token, request: request, sentAt: now, sentIntoSilence: sentIntoSilence))
        noteDeadline(now + configuration.requestTimeout)
        instances[instance].held += 1
        if suspect {
            instances[instance].isIsolated = true
            if services[service].reservation == instance { endReservation(of: service, evenForASuspect: true) }
        }
    }

    /// Puts a request whose worker was lost back in front of its queue, in arrival order among the requests
    /// already returned there, or answers it when it may not be tried again. `instance` is the process of the
    /// connection that held it; `countsAsPoison` is false when the loss says nothing about the request (it was sent
    /// to a worker already silent), so that it costs an attempt but does not make the request a poison.
    mutating func requeue(
        _ request: Request, after loss: WorkerLoss, from instance: Instance?, countsAsPoison: Bool = true,
        now: Duration, into actions: inout [BrokerAction]
    ) {
        var request = request
        switch loss {
        case .departed:
            // Never computed: the dispatch is given back. Its time in the queue still counts, so that a worker
            // that says goodbye to everything it gets cannot keep a request bouncing.
            request.attempts -= 1
            if now - request.arrivedAt >= configuration.queueTimeout {
                return fail(request, .noWorker(waited: now - request.arrivedAt), into: &actions)
            }
            traceIfAny(request.body, into: &actions)
            actions.append(.event(.requestReturned(service: request.serviceName)))
        case .vanished:
            if countsAsPoison, instance == nil || request.lostWith != instance {
                request.workersLost += 1
                request.lostWith = instance
            }
            if request.workersLost > 1 {
                let summary = envelope.summary(ofRequest: request.body)
                traceIfAny(request.body, into: &actions)
                actions.append(.event(.requestPoisoned(service: request.serviceName, request: summary)))
                return fail(request, .workerDied(workersLost: request.workersLost), into: &actions)
            }
            fallthrough
        case .misbehaved:
            guard request.attempts < configuration.maxAttempts else {
                return fail(request, .workersLost(attempts: request.attempts), into: &actions)
            }
            traceIfAny(request.body, into: &actions)
            actions.append(.event(.requestRequeued(service: request.serviceName, attempts: request.attempts)))
        }
        let queue = services[request.service].queue
        let position = queue.firstIndex { $0.sequence > request.sequence } ?? queue.count
        services[request.service].queue.insert(request, at: position)
        noteDeadline(request.arrivedAt + configuration.queueTimeout)
    }

    /// Answers a request on the broker's behalf.
    func fail(_ request: Request, _ failure: BrokerFailure, into actions: inout [BrokerAction]) {
        failUnqueued(request.client, request.serviceName, request.body, failure, into: &actions)
    }

    /// Answers a request that never made it into a queue.
    func failUnqueued(
        _ client: Frame, _ service: String, _ body: [Frame], _ failure: BrokerFailure,
        into actions: inout [BrokerAction]
    ) {
        let reply = envelope.failureReply(for: failure, service: service, requestBody: body)
        actions.append(.send(BrokerOutbound.clientReply(to: client, service: service, body: reply)))
        traceIfAny(body, into: &actions)
        actions.append(.event(.requestFailed(service: service, failure: failure)))
    }

    /// `.requestTrace` for the event about to be appended, when the request's body has a trace.
    func traceIfAny(_ body: [Frame], queued: Duration? = nil, into actions: inout [BrokerAction]) {
        guard let trace = envelope.trace(ofRequest: body) else { return }
        actions.append(.event(.requestTrace(queued.map(trace.queued) ?? trace)))
    }

    /// RFC 8: `mmi.service` answers 200 when the named service has at least one live worker, else 404; any
    /// other `mmi.*` name answers 501.
    mutating func managementRequest(
        from client: Frame, service: String, body: [Frame], into actions: inout [BrokerAction]
    ) {
        let answer: String
        if service == MDP.serviceDiscovery {
            let name = body.first?.text ?? ""
            answer = (services[key: name]?.workerCount ?? 0) > 0 ? "200" : "404"
        } else {
            answer = "501"
        }
        actions.append(.send(BrokerOutbound.clientReply(to: client, service: service, body: [Frame(answer)])))
        actions.append(.event(.managementQuery(service: service, answer: answer)))
    }

    /// Removes a service's record once it has neither workers nor queued requests, and its last worker (if it had
    /// one) left more than `serviceGrace` ago: until then the record says that workers may come back.
    mutating func forgetIfUnused(_ service: Int, now: Duration) {
        guard services[service].workerCount == 0, services[service].queue.isEmpty else { return }
        if let left = services[service].lastWorkerLeftAt, now - left < configuration.serviceGrace { return }
        endReservation(of: service)
        services.remove(service)
    }
}
