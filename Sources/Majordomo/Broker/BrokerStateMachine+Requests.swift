import DequeModule
import ZeroMQ

extension BrokerStateMachine {
    mutating func clientRequest(
        from client: Frame, service: String, body: [Frame], now: Duration, into actions: inout [BrokerAction]
    ) {
        if service.hasPrefix(MDP.managementPrefix) {
            managementRequest(from: client, service: service, body: body, into: &actions)
            return
        }
        let request = Request(sequence: nextSequence, client: client, service: service, body: body, arrivedAt: now)
        nextSequence &+= 1
        if isDraining { return fail(request, .shuttingDown, into: &actions) }
        let size = body.reduce(0) { $0 + $1.count }
        if size > configuration.maxBodyBytes {
            return fail(request, .payloadTooLarge(bytes: size, limit: configuration.maxBodyBytes), into: &actions)
        }
        if services[service] == nil {
            guard services.count < configuration.maxServices else {
                return fail(request, .tooManyServices(limit: configuration.maxServices), into: &actions)
            }
            services[service] = Service()
        }
        guard services[service]!.queue.count < configuration.maxQueuedPerService else {
            return fail(request, .overloaded(limit: configuration.maxQueuedPerService), into: &actions)
        }
        services[service]!.queue.append(request)
        dispatch(service, now: now, into: &actions)
    }

    /// Sends queued requests of `service` to its idle workers, least recently used first.
    mutating func dispatch(_ service: String, now: Duration, into actions: inout [BrokerAction]) {
        while services[service]?.queue.isEmpty == false, let workerID = services[service]!.idle.popFirst() {
            var request = services[service]!.queue.removeFirst()
            request.attempts += 1
            workers[workerID]!.assignment = request
            workers[workerID]!.assignedAt = now
            actions.append(
                .send(BrokerOutbound.workerRequest(to: workerID, client: request.client, body: request.body)))
        }
    }

    /// Puts a request whose worker was lost back in front of its queue, in arrival order among the requests
    /// already returned there, or answers it once its attempts are spent.
    mutating func requeue(_ request: Request, now: Duration, into actions: inout [BrokerAction]) {
        guard request.attempts < configuration.maxAttempts else {
            return fail(request, .workersLost(attempts: request.attempts), into: &actions)
        }
        if services[request.service] == nil { services[request.service] = Service() }
        let queue = services[request.service]!.queue
        let position = queue.firstIndex { $0.arrivedAt > request.arrivedAt } ?? queue.count
        services[request.service]!.queue.insert(request, at: position)
        actions.append(.event(.requestRequeued(service: request.service, attempts: request.attempts)))
        dispatch(request.service, now: now, into: &actions)
    }

    /// Answers a request on the broker's behalf.
    func fail(_ request: Request, _ failure: BrokerFailure, into actions: inout [BrokerAction]) {
        let body = failureReplies.replyBody(for: failure, service: request.service, requestBody: request.body)
        actions.append(.send(BrokerOutbound.clientReply(to: request.client, service: request.service, body: body)))
        actions.append(.event(.requestFailed(service: request.service, failure: failure)))
    }

    /// RFC 8: `mmi.service` answers 200 when the named service has at least one live worker, else 404; any
    /// other `mmi.*` name answers 501.
    mutating func managementRequest(
        from client: Frame, service: String, body: [Frame], into actions: inout [BrokerAction]
    ) {
        let answer: String
        if service == MDP.serviceDiscovery {
            let name = body.first?.text ?? ""
            answer = (services[name]?.workerCount ?? 0) > 0 ? "200" : "404"
        } else {
            answer = "501"
        }
        actions.append(.send(BrokerOutbound.clientReply(to: client, service: service, body: [Frame(answer)])))
        actions.append(.event(.managementQuery(service: service, answer: answer)))
    }

    /// Removes a service's record once it has neither workers nor queued requests.
    mutating func forgetIfUnused(_ name: String) {
        if let service = services[name], service.workerCount == 0, service.queue.isEmpty { services[name] = nil }
    }
}
