import DequeModule
import Logging
import ZeroMQ

/// The client's I/O loop state, owned by its thread: the socket, requests awaiting replies and messages waiting
/// for the socket to accept them.
struct ClientLoop {
    struct Pending {
        let key: String?
        let service: String
        let deadline: Duration
        let timeout: Duration
        let continuation: MajordomoClient.Continuation
    }

    let client: MajordomoClient
    let socket: Socket
    let clock = MonotonicClock()
    var pending: [UInt64: Pending] = [:]
    var tokensByKey: [String: UInt64] = [:]
    /// Requests without a key, per service, oldest first.
    var unkeyed: [String: Deque<UInt64>] = [:]
    /// Messages the socket refused for now (no broker connected yet, or a full queue), oldest first.
    var backlog = Deque<(token: UInt64, frames: [Frame])>()
    /// Cancellations that arrived before their request (the cancel handler raced the send); pruned after a minute.
    var earlyCancellations: [UInt64: Duration] = [:]
    var nextExpiryScan: Duration = .zero

    var logger: Logger { client.logger }

    init(client: MajordomoClient, socket: Socket) {
        self.client = client
        self.socket = socket
    }

    mutating func run() {
        // Two pollers built once: the socket is watched for writability only while the backlog holds messages.
        var readPoller = Poller()
        var readWritePoller = Poller()
        for events: PollEvents in [.readable, [.readable, .writable]] {
            var poller = Poller()
            poller.register(fileDescriptor: client.inbox.wakeup.fileDescriptor)
            poller.register(socket, for: events)
            if events == .readable { readPoller = poller } else { readWritePoller = poller }
        }
        let socketItem = 1
        let executor = client.executor
        executor.adoptCurrentThread()
        // Commands that arrived in the same batch as `.stop`.
        var unexecuted: [MajordomoClient.Command] = []
        while true {
            // Tasks that run on this thread (`ClientExecutor`) first: the requests they make are sent in this turn.
            executor.runLocalJobs()
            var stop = false
            for command in executor.takeLocalCommands() {
                if stop { unexecuted.append(command) } else { stop = !execute(command) }
            }
            if stop { break }
            let watchWritable = !backlog.isEmpty
            var wait: Duration? = pending.isEmpty ? nil : max(.zero, min(nextExpiryScan - clock.now, .milliseconds(10)))
            if executor.hasLocalWork { wait = .zero }
            do {
                if watchWritable { try readWritePoller.poll(timeout: wait) } else { try readPoller.poll(timeout: wait) }
            } catch {
                logger.error("client poll failed; stopping", metadata: ["error": "\(error)"])
                break
            }
            let poller = watchWritable ? readWritePoller : readPoller
            if poller.ready(0).contains(.readable) {
                var stop = false
                for command in client.inbox.takeAll() {
                    if stop { unexecuted.append(command) } else { stop = !execute(command) }
                }
                if stop { break }
            }
            let ready = poller.ready(socketItem)
            if ready.contains(.writable) { flushBacklog() }
            if ready.contains(.readable) { receiveAll() }
            if clock.now >= nextExpiryScan { expire() }
        }
        for (_, request) in pending { request.continuation.resume(returning: .failure(.stopped)) }
        pending.removeAll()
        for command in unexecuted + executor.takeLocalCommands() + client.inbox.close() {
            switch command {
            case .send(_, _, _, _, _, let continuation): continuation.resume(returning: .failure(.stopped))
            case .run(let job): executor.run(job)
            case .cancel, .stop: break
            }
        }
        // Tasks resumed above (and any they enqueue) finish here; later jobs go to the global executor.
        executor.runLocalJobs()
        socket.close()
    }

    /// Handles a command; `false` to stop.
    mutating func execute(_ command: MajordomoClient.Command) -> Bool {
        switch command {
        case .send(let token, let key, let service, let frames, let timeout, let continuation):
            if earlyCancellations.removeValue(forKey: token) != nil {
                continuation.resume(returning: .failure(.cancelled))
                return true
            }
            if let key {
                guard tokensByKey[key] == nil else {
                    continuation.resume(returning: .failure(.duplicateKey(key)))
                    return true
                }
                tokensByKey[key] = token
            } else {
                unkeyed[service, default: []].append(token)
            }
            let deadline = clock.now + timeout
            if pending.isEmpty || deadline < nextExpiryScan { nextExpiryScan = deadline }
            pending[token] = Pending(
                key: key, service: service, deadline: deadline, timeout: timeout, continuation: continuation)
            if backlog.isEmpty, (try? socket.send(frames, dontWait: true)) == true { return true }
            backlog.append((token, frames))
        case .cancel(let token):
            if let request = remove(token) {
                request.continuation.resume(returning: .failure(.cancelled))
            } else {
                earlyCancellations[token] = clock.now
            }
        case .stop:
            return false
        case .run(let job):
            client.executor.run(job)
        }
        return true
    }

    mutating func flushBacklog() {
        while let (token, frames) = backlog.first {
            guard pending[token] != nil else {
                backlog.removeFirst()
                continue
            }
            guard (try? socket.send(frames, dontWait: true)) == true else { return }
            backlog.removeFirst()
        }
    }

    mutating func receiveAll() {
        while true {
            let message: ReceivedMessage?
            do {
                message = try socket.receive(maxFrames: client.limits.maxFrames, dontWait: true)
            } catch {
                logger.error("client receive failed", metadata: ["error": "\(error)"])
                return
            }
            guard let message else { return }
            let reply: ClientInbound
            do {
                guard !message.isTruncated else { throw MajordomoDecodeError.tooManyFrames }
                reply = try ClientInbound(frames: message.frames)
            } catch {
                logger.warning("invalid reply dropped", metadata: ["reason": "\(error)"])
                continue
            }
            // MMI replies carry only a status code: they are matched in order. Everything else by its key.
            let key = reply.service.hasPrefix(MDP.managementPrefix) ? nil : client.correlate(reply)
            let token = key.map { tokensByKey[$0] } ?? unkeyed[reply.service]?.first
            guard let token, let request = remove(token) else {
                logger.debug(
                    "reply without a waiting request dropped (timed out or cancelled)",
                    metadata: ["mdp.service": "\(reply.service)"])
                continue
            }
            request.continuation.resume(returning: .success(reply))
        }
    }

    /// Fails requests whose deadline passed.
    mutating func expire() {
        let now = clock.now
        var next = now + .seconds(1)
        for (token, request) in pending {
            if request.deadline <= now {
                _ = remove(token)
                request.continuation.resume(returning: .failure(.timeout(request.timeout)))
            } else {
                next = min(next, request.deadline)
            }
        }
        nextExpiryScan = next
        earlyCancellations = earlyCancellations.filter { now - $0.value < .seconds(60) }
    }

    mutating func remove(_ token: UInt64) -> Pending? {
        guard let request = pending.removeValue(forKey: token) else { return nil }
        if let key = request.key {
            tokensByKey[key] = nil
        } else if let index = unkeyed[request.service]?.firstIndex(of: token) {
            unkeyed[request.service]!.remove(at: index)
            if unkeyed[request.service]!.isEmpty { unkeyed[request.service] = nil }
        }
        return request
    }
}
