import DequeModule
import ZeroMQ

extension BrokerStateMachine {
    mutating func workerReady(_ id: Frame, service: String, now: Duration, into actions: inout [BrokerAction]) {
        if workers[id] != nil {
            // RFC 7: READY from a worker that is already registered is a protocol error.
            actions.append(.event(.protocolViolation(peer: id, reason: "READY from a registered worker")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            removeWorker(id, now: now, into: &actions)
            return
        }
        if service.hasPrefix(MDP.managementPrefix) {
            actions.append(.event(.protocolViolation(peer: id, reason: "a worker cannot serve \(service)")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            return
        }
        if services[service] == nil {
            guard services.count < configuration.maxServices else {
                actions.append(.event(.protocolViolation(peer: id, reason: "service limit reached")))
                actions.append(.send(BrokerOutbound.disconnect(to: id)))
                return
            }
            services[service] = Service()
        }
        workers[id] = Worker(id: id, service: service, expiresAt: now + configuration.workerExpiry)
        services[service]!.workerCount += 1
        services[service]!.idle.append(id)
        actions.append(.event(.workerReady(worker: id, service: service)))
        dispatch(service, now: now, into: &actions)
    }

    mutating func workerReply(
        from id: Frame, client: Frame, body: [Frame], now: Duration, into actions: inout [BrokerAction]
    ) {
        guard let worker = workers[id] else {
            // A worker the broker gave up on (expired) or never knew: its reply was, or will be, answered by
            // another worker or by the broker. RFC 7: answer an unknown worker with DISCONNECT.
            actions.append(.event(.replyDropped(worker: id, reason: "reply from an unregistered worker")))
            actions.append(.send(BrokerOutbound.disconnect(to: id)))
            return
        }
        workers[id]!.expiresAt = now + configuration.workerExpiry
        guard let request = worker.assignment else {
            actions.append(.event(.replyDropped(worker: id, reason: "reply from a worker holding no request")))
            return
        }
        if client != request.client {
            actions.append(.event(.protocolViolation(peer: id, reason: "reply addressed to another client")))
        }
        workers[id]!.assignment = nil
        services[worker.service]!.idle.append(id)
        actions.append(.send(BrokerOutbound.clientReply(to: request.client, service: request.service, body: body)))
        actions.append(
            .event(
                .replyDelivered(service: request.service, latency: now - request.arrivedAt, attempts: request.attempts))
        )
        dispatch(worker.service, now: now, into: &actions)
    }

    /// Forgets a worker; a request it held goes back to its queue (or is answered once attempts are spent).
    mutating func removeWorker(_ id: Frame, now: Duration, into actions: inout [BrokerAction]) {
        guard let worker = workers.removeValue(forKey: id) else { return }
        services[worker.service]!.workerCount -= 1
        if let index = services[worker.service]!.idle.firstIndex(of: id) {
            services[worker.service]!.idle.remove(at: index)
        }
        if let request = worker.assignment {
            requeue(request, now: now, into: &actions)
        }
        forgetIfUnused(worker.service)
    }
}
