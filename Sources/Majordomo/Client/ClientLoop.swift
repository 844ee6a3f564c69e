import DequeModule
import Logging
import ZeroMQ

/// The client's I/O loop, owned by its thread: the socket, the messages it has not accepted yet, and the
/// `ClientStateMachine` that keeps the requests awaiting replies. The loop moves bytes and time; the machine decides
/// which reply answers which request and when a request has waited too long.
struct ClientLoop {
    let client: MajordomoClient
    let socket: Socket
    /// The PAIR socket on which the socket's connection events arrive.
    let monitor: Socket
    let clock = MonotonicClock()
    var connections: ConnectionLog
    var requests = ClientStateMachine<MajordomoClient.Continuation>()
    /// The MDP header and service frames of replies, received without allocating again.
    let frameCache = FrameCache()
    /// Messages the socket refused for now (no broker connected yet, or a full queue), oldest first.
    var backlog = Deque<(token: UInt64, frames: [Frame])>()
    /// MMI queries in flight, each on a socket of its own.
    var managementQueries = ManagementQueries()

    var logger: Logger { client.logger }

    /// Requests sent from one batch of commands before the replies waiting on the socket are read.
    static let sendsBetweenReads = 256

    init(client: MajordomoClient, socket: Socket, monitor: Socket) {
        self.client = client
        self.socket = socket
        self.monitor = monitor
        self.connections = ConnectionLog(endpoints: client.brokers)
    }

    mutating func run() {
        // Two pollers built once: the socket is watched for writability only while the backlog holds messages.
        var readPoller = Poller()
        var readWritePoller = Poller()
        for events: PollEvents in [.readable, [.readable, .writable]] {
            var poller = Poller()
            poller.register(fileDescriptor: client.inbox.wakeup.fileDescriptor)
            poller.register(socket, for: events)
            poller.register(monitor)
            if events == .readable { readPoller = poller } else { readWritePoller = poller }
        }
        let socketItem = 1
        let monitorItem = 2
        let executor = client.executor
        executor.adoptCurrentThread()
        // Commands that arrived in the same batch as `.stop`.
        var unexecuted: [MajordomoClient.Command] = []
        while true {
            // Tasks that run on this thread (`ClientExecutor`) first: the requests they make are sent in this turn.
            executor.runLocalJobs()
            var stop = false
            for (count, command) in executor.takeLocalCommands().enumerated() {
                if stop { unexecuted.append(command) } else { stop = !execute(command) }
                // A burst of requests (a flood of tasks on this thread) is sent in one go, but replies keep being
                // read meanwhile: a broker answering faster than this loop sends would otherwise fill its queue to
                // this client, and drop what does not fit.
                if count % Self.sendsBetweenReads == Self.sendsBetweenReads - 1 { receiveAll() }
            }
            if stop { break }
            let watchWritable = !backlog.isEmpty
            var wait = requests.nextDeadline.map { max(.zero, $0 - clock.now) }
            if executor.hasLocalWork { wait = .zero }
            // With MMI queries in flight their sockets join a poller of this turn's own (rare: health checks).
            var queryPoller: Poller?
            var firstQueryItem = -1
            if !managementQueries.isEmpty {
                var poller = watchWritable ? readWritePoller : readPoller
                firstQueryItem = managementQueries.register(into: &poller)
                queryPoller = poller
            }
            do {
                if queryPoller != nil {
                    try queryPoller!.poll(timeout: wait)
                } else if watchWritable {
                    try readWritePoller.poll(timeout: wait)
                } else {
                    try readPoller.poll(timeout: wait)
                }
            } catch {
                logger.error("client poll failed; stopping", metadata: ["error": "\(error)"])
                break
            }
            let poller = queryPoller ?? (watchWritable ? readWritePoller : readPoller)
            if queryPoller != nil { receiveManagementReplies(poller: poller, firstItem: firstQueryItem) }
            if poller.ready(0).contains(.readable) {
                var stop = false
                for (count, command) in client.inbox.takeAll().enumerated() {
                    if stop { unexecuted.append(command) } else { stop = !execute(command) }
                    if count % Self.sendsBetweenReads == Self.sendsBetweenReads - 1 { receiveAll() }
                }
                if stop { break }
            }
            if poller.ready(monitorItem).contains(.readable) { readConnectionEvents() }
            let ready = poller.ready(socketItem)
            if ready.contains(.writable) { flushBacklog() }
            if ready.contains(.readable) { receiveAll() }
            if let deadline = requests.nextDeadline, clock.now >= deadline {
                let expired = requests.expire(now: clock.now)
                if !expired.isEmpty {
                    let brokers = connections.connections(now: clock.now)
                    for (continuation, timeout) in expired {
                        continuation.resume(returning: .failure(.timeout(timeout, brokers: brokers)))
                    }
                    managementQueries.closeEnded(isPending: requests.isPending)
                }
            }
        }
        managementQueries.closeAll()
        for continuation in requests.stopAll() { continuation.resume(returning: .failure(.stopped)) }
        abandon(unexecuted + executor.takeLocalCommands() + client.inbox.close())
        // Tasks resumed above (and any they enqueue) finish here; later jobs go to the global executor.
        executor.runLocalJobs()
        executor.releaseCurrentThread()
        // Requests those tasks made on this thread while it was still the loop's.
        abandon(executor.takeLocalCommands())
        socket.close()
        monitor.close()
    }

    /// Answers the requests of commands the loop will never execute `stopped`; runs their tasks' jobs.
    func abandon(_ commands: [MajordomoClient.Command]) {
        for command in commands {
            switch command {
            case .send(_, _, _, _, _, let continuation): continuation.resume(returning: .failure(.stopped))
            case .run(let job): client.executor.run(job)
            case .cancel, .stop: break
            }
        }
    }

    mutating func readConnectionEvents() {
        while let message = try? monitor.receive(maxFrames: 4, dontWait: true) {
            if let event = SocketEvent(frames: message.frames) { connections.record(event, now: clock.now) }
        }
    }

    /// Handles a command; `false` to stop.
    mutating func execute(_ command: MajordomoClient.Command) -> Bool {
        switch command {
        case .send(let token, let key, let service, let frames, let timeout, let continuation):
            let isManagement = service.hasPrefix(MDP.managementPrefix)
            let matching: ClientStateMachine<MajordomoClient.Continuation>.Matching =
                isManagement ? .token : key.map { .key($0) } ?? .inOrder
            let registration = requests.register(
                token: token, matching: matching, service: service, timeout: timeout, waiter: continuation,
                now: clock.now)
            switch registration {
            case .accepted where isManagement:
                do {
                    try managementQueries.open(token: token, frames: frames, client: client)
                } catch {
                    // Only a client whose context is ending fails here: the query ends as the client does.
                    logger.error("MMI query socket failed", metadata: ["error": "\(error)"])
                    requests.answer(token: token)?.resume(returning: .failure(.stopped))
                }
            case .accepted:
                if backlog.isEmpty, (try? socket.send(frames, dontWait: true)) == true { return true }
                backlog.append((token, frames))
            case .refused(let continuation, let error):
                continuation.resume(returning: .failure(error))
            }
        case .cancel(let token):
            requests.cancel(token: token, now: clock.now)?.resume(returning: .failure(.cancelled))
            managementQueries.closeEnded(isPending: requests.isPending)
        case .stop:
            return false
        case .run(let job):
            client.executor.run(job)
        }
        return true
    }

    /// Sends what the socket refused before, as far as it takes it now; messages of requests that ended meanwhile
    /// are dropped.
    mutating func flushBacklog() {
        while let (token, frames) = backlog.first {
            guard requests.isPending(token) else {
                backlog.removeFirst()
                continue
            }
            guard (try? socket.send(frames, dontWait: true)) == true else { return }
            backlog.removeFirst()
        }
    }

    /// Sends the MMI queries that waited for a broker and hands each answer to its own query.
    mutating func receiveManagementReplies(poller: Poller, firstItem: Int) {
        let arrived = managementQueries.collect(
            from: poller, firstIndex: firstItem, maxFrames: client.limits.maxFrames, cache: frameCache)
        for (token, result) in arrived {
            switch result {
            case .success(let reply):
                requests.answer(token: token)?.resume(returning: .success(reply))
            case .failure(let error):
                logger.warning("invalid MMI reply dropped", metadata: ["reason": "\(error)"])
            }
        }
    }

    mutating func receiveAll() {
        while true {
            let received: ReceivedMessage?
            do {
                received = try socket.receive(maxFrames: client.limits.maxFrames, dontWait: true, cache: frameCache)
            } catch {
                logger.error("client receive failed", metadata: ["error": "\(error)"])
                return
            }
            guard var message = received else { return }
            let reply: ClientInbound
            do {
                guard !message.isTruncated else { throw MajordomoDecodeError.tooManyFrames }
                // The decoder gets the only reference to the frame list, so that the body keeps its storage.
                let frames = message.frames
                message.frames = []
                reply = try ClientInbound(frames: frames)
            } catch {
                logger.warning("invalid reply dropped", metadata: ["reason": "\(error)"])
                continue
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
