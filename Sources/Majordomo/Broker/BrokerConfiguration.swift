/// How a broker balances, times out and bounds work. Defaults suit a LAN deployment.
package struct BrokerConfiguration: Sendable, Hashable {
    /// How often the broker sends HEARTBEAT to each worker (RFC 7 suggests 2.5 s).
    package var heartbeatInterval: Duration = .milliseconds(2500)
    /// Heartbeat intervals of silence after which a worker is declared dead and its request re-queued.
    package var heartbeatLiveness: Int = 3
    /// How long a request may wait in the queue (counted from its arrival) before it is answered `unavailable`.
    package var queueTimeout: Duration = .seconds(10)
    /// How long the broker waits for workers of a service that has none: after it starts (workers of a restarted
    /// broker come back within their heartbeat liveness and reconnect delay, 8.5 s by default) and after a service's
    /// last worker left (a rolling restart). Within it, requests queue; outside it, a request for a service no worker
    /// serves is answered `unavailable` at once, not after the queue timeout.
    package var serviceGrace: Duration = .seconds(10)
    /// How long a worker may hold one request. Past it the broker answers the request `unavailable` and
    /// disconnects the worker (which reconnects afresh): a worker that lost a request, or hangs computing one,
    /// cannot keep a client waiting or a slot busy for ever. Tally's methods take milliseconds.
    package var requestTimeout: Duration = .seconds(60)
    /// Requests queued per service before new ones are answered `overloaded`.
    package var maxQueuedPerService: Int = 10_000
    /// Dispatches of one request: a request whose worker dies is re-queued until it has been sent this many
    /// times, then answered `unavailable`. Each request is answered exactly once either way.
    package var maxAttempts: Int = 3
    /// Largest request body (sum of body frames) accepted; larger ones are answered without being queued.
    package var maxBodyBytes: Int = 1 << 20
    /// How long a worker connection found unreachable (a send to it failed: its connection is gone) stays
    /// registered before the broker gives it up. Messages it sent before going (its last replies, its DISCONNECT)
    /// may still wait to be read, and read in time they count as what they are: delivered replies, a goodbye.
    package var unreachableGrace: Duration = .milliseconds(100)
    /// Most requests one worker connection may hold at once, whatever credit it asks for (`WorkerCapabilities`):
    /// a connection that asks for more gets this many.
    package var maxWorkerCredit: Int = 256
    /// Services with registered workers; a READY for one more service is refused.
    package var maxServices: Int = 256
    /// Services that only clients have named (requests waiting, no worker registered), counted apart from
    /// `maxServices`: this bounds the memory a client inventing names can take, and such names can never keep a
    /// real worker from registering. A request for one more is answered `unavailable`.
    package var maxWaitingServices: Int = 256

    package init() {}

    /// Silence after which a worker is dead.
    package var workerExpiry: Duration { heartbeatInterval * heartbeatLiveness }
}
