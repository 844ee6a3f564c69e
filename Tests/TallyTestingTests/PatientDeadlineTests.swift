import Dispatch
import Foundation
import TallyTesting
import Testing

/// A wait's deadline does not count the time its task was kept from running: here its task runs on a queue of its
/// own, which the test holds for a second while the task sleeps for 10 ms.
@Suite struct PatientDeadlineTests {
    /// Runs each job on one serial queue: whoever blocks the queue keeps the task from running.
    final class QueueExecutor: TaskExecutor, @unchecked Sendable {
        let queue = DispatchQueue(label: "patient-deadline-tests")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }

        /// Holds the queue for `seconds` once the job now running on it suspends.
        func holdNext(for seconds: Double) {
            queue.async { Thread.sleep(forTimeInterval: seconds) }
        }
    }

    @Test func timeKeptFromRunningMovesTheDeadlineOut() async throws {
        let executor = QueueExecutor()
        try await withTaskExecutorPreference(executor) {
            var deadline = PatientDeadline(timeout: .milliseconds(500))
            let started = ContinuousClock.now
            executor.holdNext(for: 1)
            try await deadline.sleep(for: .milliseconds(10))
            #expect(ContinuousClock.now - started >= .seconds(1), "the task ran only once the queue was let go")
            #expect(!deadline.hasPassed, "a second by the wall clock, 10 ms of the task's waiting")
        }
    }

    @Test func theExcusedTimeIsCapped() async throws {
        let executor = QueueExecutor()
        try await withTaskExecutorPreference(executor) {
            var deadline = PatientDeadline(timeout: .milliseconds(500), maximumExcused: .zero)
            executor.holdNext(for: 1)
            try await deadline.sleep(for: .milliseconds(10))
            #expect(deadline.hasPassed, "nothing excused: the wall clock's second ends a 500 ms wait")
        }
    }

    /// A cancelled test's waits end at once, not at their deadline (here 10 minutes away, past the time limit).
    @Test(.timeLimit(.minutes(1))) func aCancelledWaitEndsAtOnce() async {
        let sleeping = Task {
            var deadline = PatientDeadline(timeout: .seconds(600))
            try await deadline.sleep(for: .seconds(600))
        }
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
        let polling = Task { await eventually(timeout: .seconds(600)) { false } }
        polling.cancel()
        #expect(await polling.value == false)
    }
}
