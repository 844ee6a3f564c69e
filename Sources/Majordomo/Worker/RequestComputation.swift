import ZeroMQ

/// Where a worker computes the requests it receives.
///
/// The choice is a trade between hand-offs and isolation. Computing on the I/O thread that received the request
/// costs no thread switch at all: the request is read, answered and the reply written in one turn of that
/// thread's loop. On a small machine the switches are most of the cost of a cheap request (a `system.ping` spends
/// far longer waking threads than computing), so this is what Tally's worker uses. Its price is that a long
/// computation holds up the other connections of the same I/O thread, heartbeats included; a handler that may
/// block for seconds (sleeps, I/O) belongs on the task pool instead.
package enum RequestComputation: Sendable {
    /// Synchronously on the I/O thread that owns the connection. The worker spreads its connections over
    /// `WorkerConfiguration.ioThreads` threads, so several requests still compute at once.
    case onIOThread(@Sendable (WorkerRequest) -> [Frame])
    /// As a Swift task on the global pool; the reply returns to the I/O thread through its inbox.
    case onTaskPool(@Sendable (WorkerRequest) async -> [Frame])
}
