import Foundation

/// Runs blocking or long CPU-bound work on a thread of its own, so that the cooperative pool (one thread per core:
/// two on the CI machines) stays free for the tests running beside it: a test that computes for seconds on a pool
/// thread starves every other test's awaits, and their timeouts fire although nothing is wrong with them.
package func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
