import Logging
import ZeroMQ

/// The client's I/O loop, owned by its thread: a socket per broker (`BrokerLink`), the MMI queries in flight, and
/// the `ClientStateMachine` that keeps the requests awaiting replies. The loop moves bytes and time; the machine
/// decides which broker holds a request, which reply answers which request, when a request has waited too long,
/// and where the requests of a lost broker go (`IOLoop`, the shape of every role's loop).
struct ClientLoop: IOLoop {
    typealias Requests = ClientStateMachine<MajordomoClient.Continuation, [Frame]>

    let client: MajordomoClient
    var links: [BrokerLink]
    let clock = MonotonicClock()
    var connections: ConnectionLog
    var requests: Requests
    var polls = PollSet()
    let inboxItem: PollSet.Item
    /// Each broker's socket and monitor in `polls`.
    let linkItems: [(socket: PollSet.Item, monitor: PollSet.Item)]
    /// The MDP header and service frames of replies, received without allocating again.
    let frameCache = FrameCache()
    /// MMI queries in flight, each on a socket of its own.
    var managementQueries = ManagementQueries()
    /// Requests sent since the replies waiting on the sockets were last read.
    var sentSinceRead = 0
    /// Commands that came behind a `.stop` in a batch of this thread's tasks: never executed, answered at the end.
    var unexecuted: [MajordomoClient.Command] = []

    var inbox: Inbox<MajordomoClient.Command> { client.inbox }
    var logger: Logger { client.logger }

    /// Requests sent from one batch of commands before the replies waiting on the sockets are read.
    static let sendsBetweenReads = 256

    init(client: MajordomoClient, links: [BrokerLink]) {
        self.client = client
        self.links = links
        connections = ConnectionLog(endpoints: links.map(\.endpoint))
        requests = Requests(brokers: links.count)
        inboxItem = polls.add(client.inbox)
        var linkItems: [(socket: PollSet.Item, monitor: PollSet.Item)] = []
        for link in links {
            linkItems.append((polls.add(link.socket), polls.add(link.monitor.socket)))
        }
        self.linkItems = linkItems
    }

    mutating func run() {
        let executor = client.executor
        executor.adoptCurrentThread()
        let unexecuted = runTurns()
        managementQueries.closeAll()
        for continuation in requests.stopAll() { continuation.resume(returning: .failure(.stopped)) }
        abandon(self.unexecuted + unexecuted + executor.takeLocalCommands() + client.inbox.close())
        // Tasks resumed above (and any they enqueue) finish here; later jobs go to the global executor.
        executor.runLocalJobs()
        executor.releaseCurrentThread()
        // Requests those tasks made on this thread while it was still the loop's.
        abandon(executor.takeLocalCommands())
        for link in links { link.close() }
    }

    // MARK: IOLoop

    /// Tasks that run on this thread (`ClientExecutor`) first: the requests they make are sent in this turn.
    mutating func prepareTurn() -> LoopControl {
        client.executor.runLocalJobs()
        if let rest = executeInOrder(client.executor.takeLocalCommands()) {
            unexecuted = rest
            return .stop
        }
        return .proceed
    }

    mutating func prepareWait() -> Duration? {
        // A socket is watched for writability only while messages wait for it.
        for broker in links.indices {
            polls.watch(
                linkItems[broker].socket, for: links[broker].backlog.isEmpty ? .readable : [.readable, .writable])
        }
        managementQueries.register(into: &polls)
        return client.executor.hasLocalWork ? clock.now : requests.nextDeadline
    }

    mutating func serveTurn() -> LoopControl {
        receiveManagementReplies()
        polls.removeOnePollItems()
        for broker in links.indices { serve(broker) }
        expireRequests()
        return .proceed
    }

    /// What broker `broker`'s socket and monitor are ready for: replies first, so that those that arrived before its
    /// connection was lost answer their requests rather than be sent again.
    mutating func serve(_ broker: Int) {
        let items = linkItems[broker]
        if polls.isWritable(items.socket) { flush(broker) }
        if polls.isReadable(items.socket) { receiveAll(from: broker) }
        if polls.isReadable(items.monitor) { readConnectionEvents(of: broker) }
    }

    /// Answers the requests of commands the loop will never execute `stopped`; runs their tasks' jobs.
    func abandon(_ commands: [MajordomoClient.Command]) {
        for command in commands {
            switch command {
            case .send(_, _, _, _, _, let continuation): continuation.resume(returning: .failure(.stopped))
            case .run(let job): client.executor.run(job)
            case .connections(let reply): reply(connections.connections(now: clock.now))
            case .cancel, .stop: break
            }
        }
    }

    /// Handles a command.
    mutating func execute(_ command: MajordomoClient.Command) -> LoopControl {
        switch command {
        case .send(let token, let key, let service, let frames, let timeout, let continuation):
            let isManagement = service.hasPrefix(MDP.managementPrefix)
            let matching: Requests.Matching = isManagement ? .token : key.map { .key($0) } ?? .inOrder
            let registration = requests.register(
                token: token, matching: matching, service: service, timeout: timeout, message: frames,
                waiter: continuation, now: clock.now)
            switch registration {
            case .send(let broker): send(frames, token: token, to: broker, isManagement: isManagement)
            case .waitForBroker: break
            case .refused(let continuation, let error): continuation.resume(returning: .failure(error))
            }
            // A burst of requests is sent in one go, but replies keep being read meanwhile: a broker answering
            // faster than this loop sends would otherwise fill its queue to this client, and drop what does not fit.
            sentSinceRead += 1
            if sentSinceRead >= Self.sendsBetweenReads {
                for broker in links.indices { receiveAll(from: broker) }
            }
        case .cancel(let token):
            requests.cancel(token: token, now: clock.now)?.resume(returning: .failure(.cancelled))
            managementQueries.closeEnded(isPending: requests.isPending)
        case .connections(let reply):
            reply(connections.connections(now: clock.now))
        case .stop:
            return .stop
        case .run(let job):
            client.executor.run(job)
        }
        return .proceed
    }

    /// Sends request `token` to the broker that now holds it: on that broker's socket, or an MMI query on a socket
    /// of its own connected to that broker.
    mutating func send(_ frames: [Frame], token: UInt64, to broker: Int, isManagement: Bool) {
        guard isManagement else {
            links[broker].send(frames, token: token)
            return
        }
        do {
            try managementQueries.open(token: token, frames: frames, endpoint: links[broker].endpoint, client: client)
        } catch {
            // Only a client whose context is ending fails here: the query ends as the client does.
            logger.error("MMI query socket failed", metadata: ["error": "\(error)"])
            requests.answer(token: token)?.resume(returning: .failure(.stopped))
        }
    }

    /// Sends requests to the brokers the machine placed them with.
    mutating func send(_ placements: [Requests.Placement]) {
        for placement in placements {
            let service = requests.pending[placement.token]?.service ?? ""
            send(
                placement.message, token: placement.token, to: placement.broker,
                isManagement: service.hasPrefix(MDP.managementPrefix))
        }
    }

    /// Sends what broker `broker`'s socket refused before, as far as it takes it now.
    mutating func flush(_ broker: Int) {
        let requests = self.requests
        links[broker].flush { requests.broker(of: $0) == broker }
    }

    /// A broker that comes up takes the requests that waited for one; one that goes takes none of its requests with
    /// it: they are sent again, unchanged, wherever the machine puts them.
    mutating func readConnectionEvents(of broker: Int) {
        for event in links[broker].events() {
            switch connections.record(event, broker: broker, now: clock.now) {
            case .up:
                logger.debug("broker connected", metadata: ["mdp.broker": "\(links[broker].endpoint)"])
                send(requests.brokerUp(broker))
            case .down:
                // Replies that arrived before the connection went are still on the socket.
                receiveAll(from: broker)
                links[broker].clearBacklog()
                let moved = requests.brokerDown(broker)
                logger.info(
                    "broker connection lost; its requests are sent again",
                    metadata: [
                        "mdp.broker": "\(links[broker].endpoint)", "mdp.requests.moved": "\(moved.count)",
                        "mdp.requests.waiting": "\(requests.pending.count - moved.count)",
                    ])
                send(moved)
            case nil:
                break
            }
        }
    }

    /// Fails the requests whose time is up.
    mutating func expireRequests() {
        guard let deadline = requests.nextDeadline, clock.now >= deadline else { return }
        let expired = requests.expire(now: clock.now)
        guard !expired.isEmpty else { return }
        let brokers = connections.connections(now: clock.now)
        for (continuation, timeout) in expired {
            continuation.resume(returning: .failure(.timeout(timeout, brokers: brokers)))
        }
        managementQueries.closeEnded(isPending: requests.isPending)
    }

    /// Sends the MMI queries that waited for a broker and hands each answer to its own query.
    mutating func receiveManagementReplies() {
        let arrived = managementQueries.collect(from: polls, within: client.limits, cache: frameCache)
        for (token, result) in arrived {
            switch result {
            case .message(let reply):
                requests.answer(token: token)?.resume(returning: .success(reply))
            case .invalid(_, let reason):
                logger.warning("invalid MMI reply dropped", metadata: ["reason": "\(reason)"])
            case .nothing, .failed:
                break
            }
        }
    }

    mutating func receiveAll(from broker: Int) {
        sentSinceRead = 0
        let socket = links[broker].socket
        while true {
            let received = socket.receive(within: client.limits, cache: frameCache) { frames, _ in
                try ClientInbound(frames: consume frames)
            }
            let reply: ClientInbound
            switch received {
            case .message(let message):
                reply = message
            case .invalid(_, let reason):
                logger.warning("invalid reply dropped", metadata: ["reason": "\(reason)"])
                continue
            case .nothing:
                return
            case .failed(let error):
                logger.error("client receive failed", metadata: ["error": "\(error)"])
                return
            }
            // MMI queries are answered on sockets of their own: one here was never asked on this socket.
            guard !reply.service.hasPrefix(MDP.managementPrefix),
                let continuation = requests.answer(key: client.correlate(reply), service: reply.service)
            else {
                logger.debug(
                    "reply without a waiting request dropped (timed out or cancelled)",
                    metadata: ["mdp.service": "\(reply.service)"])
                continue
            }
            continuation.resume(returning: .success(reply))
        }
    }
}
