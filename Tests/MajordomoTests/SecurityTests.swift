import Majordomo
import Synchronization
import TallyTesting
import Testing
import ZeroMQ

/// CURVE with the broker's ZAP allow-list: known keys in their role get in, everything else stays out.
@Suite(.realProcesses) struct SecurityTests {
    let server = try! CurveKeyPair.generate()
    let clientKey = try! CurveKeyPair.generate()
    let workerKey = try! CurveKeyPair.generate()

    func secureBroker(violations: Violations? = nil) throws -> (Broker, String) {
        let security = BrokerSecurity.allowList(
            keyPair: server, clientKeys: [clientKey.publicKey], workerKeys: [workerKey.publicKey])
        let broker = try Broker(
            configuration: InProcess.broker, endpoints: ["tcp://127.0.0.1:0"], security: security,
            observer: { event in
                if case .protocolViolation(_, let reason) = event { violations?.record(reason) }
            },
            logger: InProcess.logger)
        return (broker, try broker.start()[0])
    }

    /// The reasons of the protocol violations a broker saw, as its observer reports them.
    final class Violations: Sendable {
        private let reasons = Mutex<[String]>([])

        func record(_ reason: String) { reasons.withLock { $0.append(reason) } }

        var all: [String] { reasons.withLock { $0 } }
    }

    func curve(_ keys: CurveKeyPair) -> SocketSetup {
        let serverKey = server.publicKey
        return { socket throws(ZMQError) in try socket.makeCurveClient(keys, serverKey: serverKey) }
    }

    func worker(_ endpoint: String, keys: CurveKeyPair, service: String = "echo") throws -> MajordomoWorker {
        let worker = try MajordomoWorker(
            configuration: InProcess.worker([endpoint], services: [service], concurrency: 1), socketSetup: curve(keys),
            logger: InProcess.logger
        ) { request in request.body }
        try worker.start()
        return worker
    }

    func client(_ endpoint: String, setup: SocketSetup?) throws -> MajordomoClient {
        let client = try MajordomoClient(brokers: [endpoint], socketSetup: setup, logger: InProcess.logger) {
            $0.body.first?.text
        }
        try client.start()
        return client
    }

    @Test func knownKeysInTheirRolesWork() async throws {
        let (broker, endpoint) = try secureBroker()
        let worker = try worker(endpoint, keys: workerKey)
        let client = try client(endpoint, setup: curve(clientKey))
        #expect(await eventually { await broker.snapshot().workers == 1 })
        let reply = try await client.request(service: "echo", body: ["secret"], key: "secret", timeout: .seconds(5))
        #expect(reply.body == ["secret"])
        await client.stop()
        await worker.stop()
        await broker.stop()
    }

    @Test func unknownKeysAndPlaintextPeersAreRefused() async throws {
        let (broker, endpoint) = try secureBroker()
        let worker = try worker(endpoint, keys: workerKey)
        #expect(await eventually { await broker.snapshot().workers == 1 })
        let stranger = try client(endpoint, setup: curve(try CurveKeyPair.generate()))
        let plaintext = try client(endpoint, setup: nil)
        for intruder in [stranger, plaintext] {
            let statuses = await timeoutStatuses {
                _ = try await intruder.request(service: "echo", body: ["x"], key: "x", timeout: .milliseconds(500))
            }
            #expect(statuses == [.handshakeFailed], "the timeout says why: \(String(describing: statuses))")
            await intruder.stop()
        }
        await worker.stop()
        await broker.stop()
    }

    @Test func aClientKeyCannotRegisterAWorkerNorAWorkerKeySendRequests() async throws {
        let violations = Violations()
        let (broker, endpoint) = try secureBroker(violations: violations)
        let rogue = try worker(endpoint, keys: clientKey, service: "stolen")
        let honest = try worker(endpoint, keys: workerKey)
        #expect(await eventually { await broker.snapshot().workers == 1 })
        // The rogue's READY reached the broker and was refused for its key's role.
        #expect(await eventually { violations.all.contains("worker command from a peer with role 'client'") })
        #expect(await broker.snapshot().services["stolen"] == nil, "the rogue worker was never registered")

        let workerAsClient = try client(endpoint, setup: curve(workerKey))
        let statuses = await timeoutStatuses {
            _ = try await workerAsClient.request(service: "echo", body: ["x"], key: "x", timeout: .milliseconds(500))
        }
        // The key is known, so the handshake succeeds; the broker drops what a worker key sends as a client.
        #expect(statuses?.count == 1)
        if case .connected = statuses?.first {
        } else {
            Issue.record("connected, then nothing: \(String(describing: statuses))")
        }
        await workerAsClient.stop()
        await rogue.stop()
        await honest.stop()
        await broker.stop()
    }
}
