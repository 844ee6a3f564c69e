import Synchronization
import ZeroMQ

#if canImport(Glibc)
import Glibc
#endif

/// The client's I/O thread as a Swift task executor.
///
/// A call normally crosses two threads of Tally's own: the caller's task hands the request to the I/O thread (a
/// locked inbox and a wake-up), and the reply comes back to the task through a continuation (the task is woken on
/// the cooperative pool). Code that mostly talks to Tally (a load generator, a batch job) can instead run its
/// tasks *on* the I/O thread, with `withTaskExecutorPreference(client.executor)`: then a request is handed over
/// without waking any thread, and the task that awaited a reply resumes on the thread that read it, right after
/// the read. At one request in flight that is two thread switches fewer per call.
///
/// - Important: tasks that prefer this executor share the I/O thread with the socket: they must not block or
///   compute for long, or every call of the client waits for them.
package final class ClientExecutor: TaskExecutor, Sendable {
    /// Jobs enqueued from other threads, taken by the loop through the inbox.
    private let inbox: Inbox<MajordomoClient.Command>
    /// The I/O thread, once it runs: jobs enqueued on it skip the inbox.
    private let owner = Atomic<UInt>(0)
    /// Jobs enqueued on the I/O thread itself. Touched only by that thread (checked by `owner`); the lock is never
    /// contended.
    private let local = Mutex<[UnownedJob]>([])
    /// Commands posted on the I/O thread itself (requests of tasks running here): no wake-up needed.
    private let localCommands = Mutex<[MajordomoClient.Command]>([])

    init(inbox: Inbox<MajordomoClient.Command>) {
        self.inbox = inbox
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if isOnIOThread {
            local.withLock { $0.append(job) }
        } else if !inbox.post(.run(job)) {
            // The loop has ended: a task that prefers this executor still has to run somewhere.
            job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor())
        }
    }

    /// Whether the calling thread is the client's I/O thread.
    var isOnIOThread: Bool {
        let thread = owner.load(ordering: .relaxed)
        return thread != 0 && thread == UInt(pthread_self())
    }

    /// Called by the loop as it starts, on its thread.
    func adoptCurrentThread() {
        owner.store(UInt(pthread_self()), ordering: .relaxed)
    }

    /// Called by the loop as it ends, on its thread: the thread's id may be reused by a later thread, which must
    /// not take itself for this client's loop (its requests would wait on a list nobody reads).
    func releaseCurrentThread() {
        owner.store(0, ordering: .relaxed)
    }

    /// Hands `command` to the loop: directly when called on the I/O thread, else through the inbox.
    /// - Returns: `false` when the loop has ended.
    func post(_ command: MajordomoClient.Command) -> Bool {
        guard isOnIOThread else { return inbox.post(command) }
        localCommands.withLock { $0.append(command) }
        return true
    }

    /// Takes the commands posted on the I/O thread (I/O thread only).
    func takeLocalCommands() -> [MajordomoClient.Command] {
        localCommands.withLock { commands in
            defer { commands = [] }
            return commands
        }
    }

    /// Whether jobs or commands wait on the I/O thread (so the loop must not sleep in `poll`).
    var hasLocalWork: Bool { local.withLock { !$0.isEmpty } || localCommands.withLock { !$0.isEmpty } }

    /// Runs the jobs enqueued on the I/O thread, including those they enqueue in turn (I/O thread only).
    func runLocalJobs() {
        while true {
            let jobs: [UnownedJob] = local.withLock { jobs in
                defer { jobs = [] }
                return jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { run(job) }
        }
    }

    /// Runs one job on the I/O thread.
    func run(_ job: UnownedJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}
