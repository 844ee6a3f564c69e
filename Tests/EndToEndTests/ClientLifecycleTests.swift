import Foundation
import TallyProtocol
import TallyTesting
import Testing
import ZeroMQ

@testable import TallyClient

/// `TallyClient`'s lifecycle as a backend meets it: a call before the client runs waits for it, starting is
/// idempotent, stopping answers the calls still waiting, and a dropped client lets its connection go.
@Suite(.realProcesses) struct ClientLifecycleTests {
    /// An endpoint where nothing listens (a port taken and let go at once); calls to it would wait for nothing.
    static func silentEndpoint() -> String { "tcp://\(ProcessProbes.freeLoopbackAddress())" }

    func configuration(_ endpoints: [String], timeout: Duration = .seconds(10)) -> TallyClientConfiguration {
        var configuration = TallyClientConfiguration(brokers: endpoints)
        configuration.timeout = timeout
        return configuration
    }

    /// A call made before the client runs waits for it, within its own deadline: started later, it is answered.
    @Test func aCallBeforeTheClientRunsWaitsForItToStart() async throws {
        try await withCluster(workers: 1) { cluster in
            let client = try TallyClient(configuration: configuration([cluster.endpoint], timeout: .seconds(30)))
            let early = Task { () throws(TallyClientError) -> String in try await client.ping().service }
            #expect(await eventually { client.gate.waiting == 1 }, "the call waits for the client to run")
            try client.start()
            #expect(try await early.value == "tally.history")
            await client.stop()
        }
    }

    /// One that no `run()` ever starts fails when its time is up, saying what to do.
    @Test func aCallToAClientThatNeverRunsFailsAtItsDeadlineAndSaysWhy() async throws {
        let client = try TallyClient(configuration: configuration([Self.silentEndpoint()]))
        do {
            _ = try await client.ping(timeout: .milliseconds(300))
            Issue.record("a client that does not run cannot answer")
        } catch {
            #expect(error.code == .clientNotRunning && !error.isFromServer, "\(error)")
            #expect(error.message.contains("withTallyClient"), "the message says what to do: \(error.message)")
        }
    }

    @Test func anEndpointThatIsNotZeroMQIsRefusedWhenTheClientIsMade() {
        #expect {
            _ = try TallyClient(configuration: configuration(["http://tally:5555"]))
        } throws: { error in
            (error as? TallyClientError)?.code == .invalidConfiguration
        }
    }

    @Test func startingTwiceIsHarmlessAndAStoppedClientStaysStopped() async throws {
        try await withCluster(workers: 1) { cluster in
            let client = try TallyClient(configuration: configuration([cluster.endpoint]))
            try client.start()
            try client.start()
            #expect(await waitForServices(client))
            #expect(try await client.ping().service == "tally.history")
            await client.stop()
            do throws(TallyClientError) {
                _ = try await client.ping()
                Issue.record("a stopped client cannot answer")
            } catch {
                #expect(error.code == .clientStopped, "\(error)")
            }
            do throws(TallyClientError) {
                try client.start()
                Issue.record("a stopped client cannot start again")
            } catch {
                #expect(error.code == .clientStopped, "\(error)")
            }
        }
    }

    @Test func stoppingAnswersTheCallsStillWaitingAtOnce() async throws {
        // A broker with no worker yet, which holds the calls for a minute: the calls wait, and the test sees them.
        let http = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 0, brokerArguments: ["--http", http, "--service-grace", "60s", "--queue-timeout", "60s"])
        let client = try TallyClient(configuration: configuration([cluster.endpoint]))
        try client.start()
        let waiting = (0..<3).map { _ in
            Task { () -> TallyClientError? in
                do throws(TallyClientError) {
                    _ = try await client.ping()
                    return nil
                } catch {
                    return error
                }
            }
        }
        #expect(
            await eventually {
                ProcessProbes.total("tally_broker_queued_requests", in: await ProcessProbes.metrics(at: http) ?? "")
                    >= 3
            }, "the broker holds the three calls")
        let clock = ContinuousClock()
        let stopping = clock.now
        await client.stop()
        for call in waiting {
            let error = await call.value
            #expect(error?.code == .clientStopped, "\(String(describing: error))")
        }
        let elapsed = clock.now - stopping
        #expect(elapsed < .seconds(5), "stop answers the waiting calls at once, not at their 10 s timeout: \(elapsed)")
        // A graceful stop would wait out the queued calls.
        cluster.broker.kill9()
        await cluster.broker.waitForExit()
    }

    @Test func withTallyClientStopsTheClientWhenItsBodyThrows() async throws {
        struct BodyFailed: Error {}
        var escaped: TallyClient?
        await #expect(throws: BodyFailed.self) {
            try await withTallyClient(configuration([Self.silentEndpoint()])) { client in
                escaped = client
                throw BodyFailed()
            }
        }
        do {
            _ = try await escaped?.ping()
            Issue.record("the client is stopped after the body")
        } catch {
            #expect(error.code == .clientStopped, "\(error)")
        }
    }

    @Test func runServesCallsUntilItsTaskIsCancelled() async throws {
        try await withCluster(workers: 1) { cluster in
            let client = try TallyClient(configuration: configuration([cluster.endpoint]))
            let running = Task { try await client.run() }
            #expect(await eventually { (try? await client.isServiceAvailable("tally.history")) == true })
            #expect(try await client.ping().service == "tally.history")
            running.cancel()
            try await running.value
            do throws(TallyClientError) {
                _ = try await client.ping()
                Issue.record("a client whose run ended cannot answer")
            } catch {
                #expect(error.code == .clientStopped, "\(error)")
            }
        }
    }

    /// A client dropped without `stop()` closes its socket: the peer sees the connection end.
    @Test func aDroppedClientLetsItsConnectionGo() async throws {
        let context = try Context()
        let router = try Socket(context, type: .router)
        try router.bind("tcp://127.0.0.1:0")
        // The router's view of the connection, for the failure messages: accepted, handshake done, gone.
        try router.monitor(
            "inproc://client-lifecycle-router",
            events: [.accepted, .handshakeSucceeded, .handshakeFailed, .disconnected])
        let events = try Socket(context, type: .pair)
        try events.connect("inproc://client-lifecycle-router")
        let clock = ContinuousClock()
        let started = clock.now
        var seen: [String] = []
        func readEvents() throws {
            while let message = try events.receive(maxFrames: 4, dontWait: true) {
                guard let event = SocketEvent(frames: message.frames) else { continue }
                let name: String =
                    switch event.kind {
                    case .accepted: "accepted"
                    case .handshakeSucceeded: "handshake done"
                    case .disconnected: "disconnected"
                    default: "handshake failed (\(event.kind.rawValue))"
                    }
                seen.append("\(name) at \(clock.now - started)")
            }
        }
        weak var dropped: TallyClient?
        do {
            // A timeout long enough for a loaded machine to connect; the call is cancelled once it has arrived.
            var configuration = configuration([router.lastEndpoint], timeout: .seconds(15))
            configuration.retries = 0
            let client = try TallyClient(configuration: configuration)
            dropped = client
            try client.start()
            // The request reaching the router proves the connection is up; nobody answers it.
            // Started on this thread: the request is on its way before the wait below begins, whatever the pool does.
            let call = Task.immediate { try? await client.ping() }
            let arrived = await eventually {
                try? readEvents()
                return (try? router.receive(maxFrames: 8, dontWait: true)) != nil
            }
            #expect(arrived, "the request reached the peer; the router saw: \(seen)")
            call.cancel()
            _ = await call.value
        }
        #expect(await eventually { dropped == nil }, "nothing keeps a dropped client alive")
        let disconnected = await eventually(timeout: .seconds(5)) {
            try? readEvents()
            return seen.contains { $0.hasPrefix("disconnected") }
        }
        #expect(disconnected, "the dropped client's socket was closed; the router saw: \(seen)")
        for socket in [router, events] { socket.close() }
        context.shutdown()
    }
}
