/// The end of a test's bounded wait, which does not count the time its task spent waiting for a thread.
///
/// A test's waits poll: check, sleep a few milliseconds, check again, until the deadline. On two cores beside the
/// CPU-bound tests of the same run, the cooperative pool (a thread per core) can leave a task whose sleep has ended
/// queued for many seconds (20 s was seen at the start of a run beside a busy core). A deadline by the wall clock
/// then fires for the crowd, not for the behaviour: the wait's task, and the tasks it waits on (a request not yet
/// sent, a reply not yet read), never ran in between. This deadline moves out by every oversleep past
/// `toleratedOversleep`, so that it ends once the wait has watched for `timeout` while it could run — up to
/// `maximumExcused` in all, beyond which it ends by the wall clock: a run whose pool never frees is itself the hang
/// the deadline guards against.
package struct PatientDeadline {
    private let clock = ContinuousClock()
    private var end: ContinuousClock.Instant
    private var excused: Duration = .zero
    private let maximumExcused: Duration

    /// An oversleep no longer than this counts as waiting: a loaded scheduler's usual lateness.
    package static let toleratedOversleep: Duration = .milliseconds(250)

    /// - Parameters:
    ///   - timeout: how long to wait while the waiting task runs.
    ///   - maximumExcused: how much descheduled time may add to `timeout`: by default 60 s, three times the
    ///     longest stall a busy run has shown.
    package init(timeout: Duration, maximumExcused: Duration = .seconds(60)) {
        end = clock.now + timeout
        self.maximumExcused = maximumExcused
    }

    /// Whether the wait's time is up.
    package var hasPassed: Bool { clock.now >= end }

    /// Sleeps for `interval`, then moves the deadline out by whatever the task was kept from running beyond it.
    /// Throws `CancellationError` when the task is cancelled: a cancelled test's waits end at once.
    package mutating func sleep(for interval: Duration) async throws {
        let before = clock.now
        try await Task.sleep(for: interval)
        let overslept = clock.now - before - interval
        guard overslept > Self.toleratedOversleep else { return }
        let granted = min(overslept, maximumExcused - excused)
        guard granted > .zero else { return }
        excused += granted
        end += granted
    }
}
