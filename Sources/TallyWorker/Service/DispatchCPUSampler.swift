#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Measures the CPU time the worker's thread spends in the dispatcher, for one request in `interval`.
///
/// Wall-clock time in the dispatcher (`tally_worker_request_duration_seconds`) counts the time a thread was
/// preempted mid-request as the request's, which on a loaded host (six worker threads on two cores at 100 in
/// flight) is much of it. The thread's own CPU clock counts only its work, so that "the worker's CPU per request
/// minus its dispatch" is the transport's share. Reading that clock is a system call (the vDSO serves only the
/// wall clocks), two per measured request: sampling keeps it from the cost of a cheap request (a ping is a few
/// microseconds).
final class DispatchCPUSampler: Sendable {
    let interval: UInt64
    private let requests = Atomic<UInt64>(0)

    init(interval: UInt64 = 16) {
        self.interval = interval
    }

    /// Whether this request is one to measure.
    func shouldSample() -> Bool {
        requests.wrappingAdd(1, ordering: .relaxed).oldValue % interval == 0
    }

    /// The calling thread's CPU time so far.
    static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
