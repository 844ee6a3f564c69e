import TallyClient
import TallyProtocol

/// The transport of a `FakeTally` client: each attempt answered in process by the fake, or, for a call the fake
/// gives no answer, timed out after the attempt's own timeout, as on the wire.
struct FakeTransport: TallyTransport {
    let fake: FakeTally

    func start() throws(TallyClientError) {}

    func stop() async {}

    func requestStop() {}

    func attempt(
        service: String, body: [UInt8], key: String?, timeout: Duration
    ) async throws(TransportFailure) -> [UInt8] {
        if service == "mmi.service" {
            return Array((fake.serves(String(decoding: body, as: UTF8.self)) ? "200" : "404").utf8)
        }
        if let reply = await fake.respond(to: body, service: service) { return reply }
        do {
            try await Task.sleep(for: timeout)
        } catch {
            throw .cancelled
        }
        throw .timeout(brokers: [])
    }

    func connections() async -> [BrokerConnectionState] { [] }

    var executor: (any TaskExecutor)? { nil }
}
