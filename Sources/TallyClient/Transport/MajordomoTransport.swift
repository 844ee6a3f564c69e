import Logging
import Majordomo
import TallyProtocol
import ZeroMQ

/// The client's wire: a `MajordomoClient` with a socket per broker, replies matched by the v1 `id`.
struct MajordomoTransport: TallyTransport {
    let client: MajordomoClient

    init(configuration: TallyClientConfiguration, logger: Logger) throws(TallyClientError) {
        let security = configuration.security
        do {
            client = try MajordomoClient(
                brokers: configuration.brokers, limits: configuration.limits, liveness: configuration.liveness,
                socketSetup: { socket throws(ZMQError) in try security.apply(to: socket) }, logger: logger
            ) { reply in
                reply.body.first.flatMap { frame in frame.withUnsafeBytes { EnvelopeScanner.id(in: $0) } }
            }
        } catch {
            throw TallyClientError(.invalidConfiguration, "the client's transport could not be created: \(error)")
        }
    }

    func start() throws(TallyClientError) {
        do {
            try client.start()
        } catch {
            throw TallyClientError(.clientStopped, "the client cannot start: \(error)")
        }
    }

    func stop() async { await client.stop() }

    func requestStop() { client.requestStop() }

    func attempt(
        service: String, body: [UInt8], key: String?, timeout: Duration
    ) async throws(TransportFailure) -> [UInt8] {
        do {
            let reply = try await client.request(service: service, body: [Frame(body)], key: key, timeout: timeout)
            return reply.body.first?.bytes ?? []
        } catch {
            switch error {
            case .timeout(_, let brokers): throw .timeout(brokers: brokers.map(BrokerConnectionState.init))
            case .cancelled: throw .cancelled
            case .stopped, .notStarted: throw .stopped
            case .duplicateKey(let key): throw .duplicateKey(key)
            }
        }
    }

    func connections() async -> [BrokerConnectionState] {
        await client.connections().map(BrokerConnectionState.init)
    }

    var executor: (any TaskExecutor)? { client.executor }
}
