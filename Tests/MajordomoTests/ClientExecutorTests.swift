import Foundation
import Logging
import Testing

@testable import Majordomo

/// The client's I/O thread as a task executor, and how it knows its own thread.
@Suite struct ClientExecutorTests {
    /// glibc gives a new thread the stack an ended one left in its cache, and the id of a thread is the address of
    /// its stack: a thread started after a client's loop ended often has the loop's id. It must not take itself for
    /// the loop, whose requests it would queue where nobody reads them.
    @Test func aThreadStartedAfterTheLoopEndedIsNotTakenForIt() async throws {
        let client = try MajordomoClient(
            brokers: ["tcp://127.0.0.1:9"], logger: Logger(label: "client-executor-test"), correlate: { _ in nil })
        try client.start()
        let executor = client.executor
        let (onTheLoop, loopID) = await withTaskExecutorPreference(executor) {
            (executor.isOnIOThread, UInt(pthread_self()))
        }
        #expect(onTheLoop, "a task preferring the executor runs on the loop's thread")
        await client.stop()
        // Threads of the loop's stack size, as many as it takes for glibc to have freed the loop's stack.
        var reusedID = 0
        for _ in 0..<20 {
            try await Task.sleep(for: .milliseconds(5))
            let (taken, id) = await Self.onThread(stackSize: 1 << 20) { (executor.isOnIOThread, UInt(pthread_self())) }
            #expect(!taken, "a thread started after the loop ended took itself for the loop")
            if id == loopID { reusedID += 1 }
        }
        print("threads started after the loop ended with the loop's id: \(reusedID) of 20")
    }

    /// Runs `body` on a new thread of `stackSize` bytes of stack.
    static func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = stackSize
            thread.start()
        }
    }
}
