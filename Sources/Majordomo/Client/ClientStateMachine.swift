import DequeModule

/// The client's bookkeeping of requests awaiting replies, without a socket or a clock: which broker holds each
/// request, which reply answers which request, which request timed out, what a lost broker, a cancellation or a
/// stop ends. `ClientLoop` executes what it decides; tests drive it with plain values.
///
/// Replies are matched by a correlation key (for Tally, the response `id`): a request made with a key is answered by
/// the reply carrying that key, whichever broker it comes through. A request sent on a socket of its own (an MMI
/// query, whose reply carries only a status code) is answered by whatever arrives on that socket: by its token.
/// Other requests without a key are matched in order per service. A reply that matches nothing (its request timed
/// out or was cancelled, or it was never made) is dropped. Every waiter is handed back exactly once: answered,
/// failed or stopped.
///
/// Each request is held by one broker (`BrokerChoice` picks it), or waits while no broker is up. When a broker's
/// connection is lost, what it held is lost with it, so every request it held is sent again, unchanged (same key,
/// same timeout), to a broker that is up, or waits for one: a connection lost costs no request and no attempt.
///
/// `Waiter` is whatever the caller waits with (a continuation for `ClientLoop`, a plain value in tests); `Message`
/// is what is sent again (the request's frames).
struct ClientStateMachine<Waiter, Message> {
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
        let message: Message
        /// The broker that holds the request; `nil` while it waits for one to be up.
        var broker: Int?
    }

    /// A request to send to `broker`: newly registered, waiting until a broker came up, or moved off a lost one.
    struct Placement {
        let token: UInt64
        let message: Message
        let broker: Int
    }

    private(set) var pending: [UInt64: Pending] = [:]
    private var tokensByKey: [String: UInt64] = [:]
    /// Requests without a key, per service, oldest first.
    private var unkeyed: [String: Deque<UInt64>] = [:]
    /// Cancellations that arrived before their request (the cancel handler raced the send), by arrival time.
    private var earlyCancellations: [UInt64: Duration] = [:]
    /// When `expire` has something to do (a deadline, or an early cancellation to prune); `nil` with nothing pending.
    private(set) var nextDeadline: Duration?
    private var brokers: BrokerChoice
    /// Requests that wait for a broker to be up, oldest first.
    private var unplaced: Deque<UInt64> = []

    /// A client of `brokers` brokers, numbered from 0, none of them up yet.
    init(brokers: Int) {
        self.brokers = BrokerChoice(brokers: brokers)
    }

    /// How long an early cancellation is remembered for a request that never comes.
    static var cancellationMemory: Duration { .seconds(60) }

    /// What became of a request handed to `register`.
    enum Registration {
        /// Now pending and held by this broker: send it there.
        case send(to: Int)
        /// Now pending, but no broker is up: it is sent when one is (`brokerUp`).
        case waitForBroker
        /// Not pending: hand the waiter back with this error, and send nothing.
        case refused(Waiter, MajordomoClientError)
    }

    /// Records a request about to be sent, answered by a reply with `key` (or, without one, in order).
    mutating func register(
        token: UInt64, key: String?, service: String, timeout: Duration, message: Message, waiter: Waiter,
        now: Duration
    ) -> Registration {
        register(
            token: token, matching: key.map { .key($0) } ?? .inOrder, service: service, timeout: timeout,
            message: message, waiter: waiter, now: now)
    }

    /// Records a request about to be sent, answered as `matching` says.
    mutating func register(
        token: UInt64, matching: Matching, service: String, timeout: Duration, message: Message, waiter: Waiter,
        now: Duration
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
        let broker = brokers.choose()
        pending[token] = Pending(
            key: key, service: service, deadline: deadline, timeout: timeout, waiter: waiter, message: message,
            broker: broker)
        nextDeadline = min(nextDeadline ?? deadline, deadline)
        guard let broker else {
            unplaced.append(token)
            return .waitForBroker
        }
        brokers.hold(broker)
        return .send(to: broker)
    }

    /// Broker `broker`'s connection is up (again): the requests that waited for a broker go to it (or, with
    /// several up, to whichever `BrokerChoice` picks), oldest first.
    mutating func brokerUp(_ broker: Int) -> [Placement] {
        brokers.markUp(broker)
        var placements: [Placement] = []
        while let token = unplaced.popFirst() {
            guard let target = brokers.choose() else { break }
            placements.append(place(token, on: target))
        }
        return placements
    }

    /// Broker `broker`'s connection is lost, and every request it held with it: they go to the brokers still up,
    /// oldest first, or wait for one to be (`brokerUp`). Nothing waits while a broker is up, so those sent back to
    /// waiting keep their order.
    mutating func brokerDown(_ broker: Int) -> [Placement] {
        brokers.markDown(broker)
        let lost = pending.filter { $0.value.broker == broker }.keys.sorted()
        var placements: [Placement] = []
        for token in lost {
            brokers.release(broker)
            if let target = brokers.choose() {
                placements.append(place(token, on: target))
            } else {
                pending[token]!.broker = nil
                unplaced.append(token)
            }
        }
        return placements
    }

    private mutating func place(_ token: UInt64, on broker: Int) -> Placement {
        pending[token]!.broker = broker
        brokers.hold(broker)
        return Placement(token: token, message: pending[token]!.message, broker: broker)
    }

    /// The broker holding request `token`; `nil` when it waits for one, or is not pending.
    func broker(of token: UInt64) -> Int? { pending[token]?.broker }

    /// Whether broker `broker`'s connection is up.
    func isUp(_ broker: Int) -> Bool { brokers.isUp[broker] }

    /// How many pending requests broker `broker` holds.
    func held(by broker: Int) -> Int { brokers.held[broker] }

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
        unplaced.removeAll()
        brokers.releaseAll()
        return waiters
    }

    private mutating func remove(_ token: UInt64) -> Pending? {
        guard let request = pending.removeValue(forKey: token) else { return nil }
        if let broker = request.broker {
            brokers.release(broker)
        } else if let index = unplaced.firstIndex(of: token) {
            unplaced.remove(at: index)
        }
        if let key = request.key {
            tokensByKey[key] = nil
        } else if let index = unkeyed[request.service]?.firstIndex(of: token) {
            unkeyed[request.service]!.remove(at: index)
            if unkeyed[request.service]!.isEmpty { unkeyed[request.service] = nil }
        }
        return request
    }
}
