import Foundation
import Majordomo
import TallyTesting
import Testing
import ZeroMQ

/// Broker, worker and client share one lifecycle: starting twice does nothing, a stopped role cannot start again,
/// and asking a role that never started how it stands answers at once instead of waiting for a thread that is not
/// there.
@Suite(.realProcesses) struct RoleLifecycleTests {
    @Test func aBrokerStartsOnceAndNotAfterItStopped() async throws {
        let broker = try Broker(
            configuration: InProcess.broker, endpoints: ["tcp://127.0.0.1:0"], logger: InProcess.logger)
        let unstarted = await broker.snapshot()
        #expect(unstarted.services.isEmpty && unstarted.isDraining, "not ready before it starts")
        let first = try broker.start()
        let second = try broker.start()
        #expect(first == second && first.count == 1, "\(first) then \(second)")
        let client = try echoClient(first)
        let worker = try echoWorker("w", endpoints: first)
        let reply = try await client.request(
            service: "echo", body: [Frame("ping")], key: "ping", timeout: InProcess.replyTimeout)
        #expect(reply.body.first?.text == "ping")
        await client.stop()
        await worker.stop()
        await broker.stop()
        #expect(throws: ZMQError.self) { try broker.start() }
    }

    @Test func aWorkerStartsOnceAndReportsNothingBeforeItStarts() async throws {
        let (broker, endpoint) = try startBroker()
        let worker = try MajordomoWorker(
            configuration: InProcess.worker([endpoint]), logger: InProcess.logger
        ) { request in request.body }
        let unstarted = await worker.status()
        #expect(!unstarted.isReady && unstarted.services.isEmpty)
        try worker.start()
        try worker.start()
        #expect(await eventually { await worker.status().isReady })
        #expect(await worker.status().services["echo"]?.connected == 2, "one set of connections, not two")
        await worker.stop()
        #expect(throws: ZMQError.self) { try worker.start() }
        await broker.stop()
    }

    @Test func aClientThatNeverStartedFailsItsRequestsAtOnce() async throws {
        let client = try MajordomoClient(brokers: ["tcp://127.0.0.1:1"], logger: InProcess.logger) { _ in nil }
        await #expect(throws: MajordomoClientError.notStarted) {
            _ = try await client.request(service: "echo", body: [Frame("x")], key: nil, timeout: .seconds(30))
        }
        try client.start()
        try client.start()
        await client.stop()
        await #expect(throws: MajordomoClientError.stopped) {
            _ = try await client.request(service: "echo", body: [Frame("x")], key: nil, timeout: .seconds(30))
        }
        #expect(throws: ZMQError.self) { try client.start() }
    }
}
