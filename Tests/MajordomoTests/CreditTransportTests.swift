import Foundation
import Majordomo
import Synchronization
import TallyTesting
import Testing
import ZeroMQ

/// Credit over real sockets: one worker connection that offers credit 4 holds four requests at once.
@Suite(.realProcesses) struct CreditTransportTests {
    /// Each request waits until all four have reached the worker before it answers. With one request per
    /// connection at a time, the first would wait for ever and the calls would time out; with credit they all
    /// arrive on the one connection and are answered together.
    @Test func oneConnectionHoldsAsManyRequestsAsItsCredit() async throws {
        let (broker, endpoint) = try startBroker()
        let arrived = Mutex(0)
        var configuration = InProcess.worker([endpoint], concurrency: 1, credit: 4)
        configuration.ioThreads = 1
        let worker = try MajordomoWorker(configuration: configuration, logger: InProcess.logger) { request in
            arrived.withLock { $0 += 1 }
            let deadline = ContinuousClock.now + .seconds(5)
            while arrived.withLock({ $0 }) < 4, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return request.body + [Frame("together=\(arrived.withLock { $0 } >= 4)")]
        }
        try worker.start()
        let client = try echoClient([endpoint])
        #expect(await eventually { await broker.snapshot().workers == 1 }, "one connection")

        let replies = try await withThrowingTaskGroup(of: ClientInbound.self) { group in
            for index in 0..<4 {
                group.addTask {
                    try await client.request(
                        service: "echo", body: [Frame("r\(index)")], key: "r\(index)", timeout: InProcess.replyTimeout)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(replies.count == 4)
        #expect(replies.allSatisfy { $0.body.last == "together=true" })
        await client.stop()
        await worker.stop()
        await broker.stop()
    }

    /// Against a broker that ignores credit (one request per connection, as MDP/0.1 says), the same worker still
    /// answers every request, one at a time.
    @Test func creditIsOnlyAnOffer() async throws {
        let (broker, endpoint) = try startBroker(
            configuration: {
                var configuration = InProcess.broker
                configuration.maxWorkerCredit = 1
                return configuration
            }())
        var configuration = InProcess.worker([endpoint], concurrency: 1, credit: 4)
        configuration.ioThreads = 1
        let worker = try MajordomoWorker(configuration: configuration, logger: InProcess.logger) { request in
            request.body + ["done"]
        }
        try worker.start()
        let client = try echoClient([endpoint])
        #expect(await eventually { await broker.snapshot().workers == 1 })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let reply = try await client.request(
                        service: "echo", body: [Frame("r\(index)")], key: "r\(index)", timeout: InProcess.replyTimeout)
                    #expect(reply.body == [Frame("r\(index)"), "done"])
                }
            }
            try await group.waitForAll()
        }
        await client.stop()
        await worker.stop()
        await broker.stop()
    }
}
