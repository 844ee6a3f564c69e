import Majordomo
import ServiceLifecycle

/// Waits until the worker is ready (every service registered with at least one broker) and says so once, through
/// `announce`: what `/readyz` answers, for scripts and tests that have no HTTP port. Ends when it has spoken, or
/// when the worker drains first.
package struct RegistrationAnnouncer: Service {
    let worker: MajordomoWorker
    let announce: @Sendable (WorkerStatus) -> Void

    package init(worker: MajordomoWorker, announce: @escaping @Sendable (WorkerStatus) -> Void) {
        self.worker = worker
        self.announce = announce
    }

    package func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let status = await worker.status()
            if status.isReady {
                announce(status)
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
