import DequeModule

/// The client's bookkeeping of requests awaiting replies, without a socket or a clock: which reply answers which
/// request, which request timed out, what a cancellation or a stop ends. `ClientLoop` executes what it decides;
/// tests drive it with plain values.
///
/// Replies are matched by a correlation key (for Tally, the response `id`): a request made with a key is answered by
/// the reply carrying that key. A request sent on a socket of its own (an MMI query, whose reply carries only a
/// status code) is answered by whatever arrives on that socket: by its token. Other requests without a key are
/// matched in order per service. A reply that matches nothing (its request timed out or was cancelled, or it was
/// never made) is dropped. Every waiter is handed back exactly once: answered, failed or stopped.
///
/// `Waiter` is whatever the caller waits with (a continuation for `ClientLoop`, a plain value in tests).
struct ClientStateMachine<Waiter> {
    /// How a request's reply is found.
    enum Matching: Hashable {
        /// By the correlation key the reply carries.
        case key(String)
        /// By the token of the request: the reply came on a socket that carried this request alone.
        case token
        /// The oldest request of the reply's service without a key.
        case inOrder
    }

    struct Pending {
        let key: String?
        let service: String
        let deadline: Duration
        let timeout: Duration
        let waiter: Waiter
    }

    private(set) var pending: [UInt64: Pending] = [:]
    private var tokensByKey: [String: UInt64] = [:]
    /// Requests without a key, per service, oldest first.
    private var unkeyed: [String: Deque<UInt64>] = [:]
    /// Cancellations that arrived before their request (the cancel handler raced the send), by arrival time.
    private var earlyCancellations: [UInt64: Duration] = [:]
    /// When `expire` has something to do (a deadline, or an early cancellation to prune); `nil` with nothing pending.
    private(set) var nextDeadline: Duration?

    /// How long an early cancellation is remembered for a request that never comes.
    static var cancellationMemory: Duration { .seconds(60) }

    /// What became of a request handed to `register`.
    enum Registration {
        /// Now pending: send it.
        case accepted
        /// Not pending: hand the waiter back with this error, and send nothing.
        case refused(Waiter, MajordomoClientError)
    }

    /// Records a request about to be sent, answered by a reply with `key` (or, without one, in order).
    mutating func register(
        token: UInt64, key: String?, service: String, timeout: Duration, waiter: Waiter, now: Duration
    ) -> Registration {
        register(
            token: token, matching: key.map { .key($0) } ?? .inOrder, service: service, timeout: timeout,
            waiter: waiter, now: now)
    }

    /// Records a request about to be sent, answered as `matching` says.
    mutating func register(
        token: UInt64, matching: Matching, service: String, timeout: Duration, waiter: Waiter, now: Duration
    ) -> Registration {
        if earlyCancellations.removeValue(forKey: token) != nil { return .refused(waiter, .cancelled) }
        var key: String?
        switch matching {
        case .key(let value):
            guard tokensByKey[value] == nil else { return .refused(waiter, .duplicateKey(value)) }
            tokensByKey[value] = token
            key = value
        case .inOrder:
            unkeyed[service, default: []].append(token)
        case .token:
            break
        }
        let deadline = now + timeout
        pending[token] = Pending(key: key, service: service, deadline: deadline, timeout: timeout, waiter: waiter)
        nextDeadline = min(nextDeadline ?? deadline, deadline)
        return .accepted
    }

    /// The waiter of the request a reply answers: by `key` when the reply carries one (`nil` for unkeyed replies),
    /// else the oldest unkeyed request of `service`. `nil` when none waits for it: the reply is dropped.
    mutating func answer(key: String?, service: String) -> Waiter? {
        let token = key.map { tokensByKey[$0] } ?? unkeyed[service]?.first
        return token.flatMap { remove($0)?.waiter }
    }

    /// The waiter of request `token`, answered by a reply on its own socket; `nil` when it ended before (timed out
    /// or cancelled): the reply is dropped.
    mutating func answer(token: UInt64) -> Waiter? {
        remove(token)?.waiter
    }

    /// A caller gave up on request `token`: its waiter, to be told so, or `nil` when the request has not been
    /// registered yet (then it is refused when it is).
    mutating func cancel(token: UInt64, now: Duration) -> Waiter? {
        if let request = remove(token) { return request.waiter }
        earlyCancellations[token] = now
        nextDeadline = min(nextDeadline ?? now + Self.cancellationMemory, now + Self.cancellationMemory)
        return nil
    }

    /// Requests whose deadline has passed, with the timeout each was given; forgets them (a late reply is then
    /// dropped) and stale early cancellations.
    mutating func expire(now: Duration) -> [(waiter: Waiter, timeout: Duration)] {
        var expired: [(waiter: Waiter, timeout: Duration)] = []
        var next: Duration?
        for (token, request) in pending {
            if request.deadline <= now {
                _ = remove(token)
                expired.append((request.waiter, request.timeout))
            } else {
                next = min(next ?? request.deadline, request.deadline)
            }
        }
        earlyCancellations = earlyCancellations.filter { now - $0.value < Self.cancellationMemory }
        for arrived in earlyCancellations.values {
            next = min(next ?? arrived + Self.cancellationMemory, arrived + Self.cancellationMemory)
        }
        nextDeadline = next
        return expired
    }

    /// Whether request `token` still waits for its reply (a message for it is still worth sending).
    func isPending(_ token: UInt64) -> Bool { pending[token] != nil }

    /// Ends everything: the waiters of every pending request.
    mutating func stopAll() -> [Waiter] {
        let waiters = pending.values.map(\.waiter)
        pending.removeAll()
        tokensByKey.removeAll()
        unkeyed.removeAll()
        earlyCancellations.removeAll()
        nextDeadline = nil
        return waiters
    }

    private mutating func remove(_ token: UInt64) -> Pending? {
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
