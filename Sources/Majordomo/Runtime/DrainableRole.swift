/// A broker or a worker as a service runs it: drained for a grace period when the service is asked to shut down
/// gracefully, stopped at once when it is cancelled instead.
package protocol DrainableRole: Sendable {
    /// Stops taking work and lets what is under way finish for up to `gracePeriod`.
    func shutdown(gracePeriod: Duration) async
    /// Stops at once.
    func stop() async
}

extension DrainableRole {
    /// Waits for `shutdownRequest` (a service's `gracefulShutdown()`) and then drains for `gracePeriod`; when the
    /// wait throws (the service was cancelled), stops at once.
    package func run(until shutdownRequest: () async throws -> Void, gracePeriod: Duration) async {
        do {
            try await shutdownRequest()
            await shutdown(gracePeriod: gracePeriod)
        } catch {
            await stop()
        }
    }
}
