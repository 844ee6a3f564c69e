@testable import Majordomo
import Testing

/// How a worker spreads its concurrency over its connections as credit.
@Suite struct WorkerConfigurationTests {
    func credits(concurrency: Int, connections: Int? = nil, threads: Int = 2) -> [Int] {
        var configuration = WorkerConfiguration(brokers: ["tcp://127.0.0.1:1"], services: ["s"])
        configuration.concurrency = concurrency
        configuration.connections = connections
        configuration.ioThreads = threads
        return WorkerSession.all(for: configuration).map(\.credit)
    }

    @Test func concurrencyIsSharedAsCreditAndNeverExceeded() {
        #expect(credits(concurrency: 16) == [8, 8], "one connection per I/O thread")
        #expect(credits(concurrency: 3) == [2, 1], "the first connections take the remainder")
        #expect(credits(concurrency: 1) == [1], "no more connections than requests")
        #expect(credits(concurrency: 16, connections: 5) == [4, 3, 3, 3, 3])
        #expect(credits(concurrency: 4, connections: 4) == [1, 1, 1, 1], "plain MDP/0.1 shape: one request each")
        for concurrency in 1...40 {
            for threads in 1...4 {
                #expect(credits(concurrency: concurrency, threads: threads).reduce(0, +) == concurrency)
            }
        }
    }
}
