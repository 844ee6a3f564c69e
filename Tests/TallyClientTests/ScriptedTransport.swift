import Foundation
import Logging
import Synchronization
import TallyProtocol

@testable import TallyClient

/// A transport that answers each attempt as the test scripted it, and records what the client sent: the client's
/// logic seen from the wire, with no socket.
final class ScriptedTransport: TallyTransport, Sendable {
    /// How one attempt ends.
    enum Answer: Sendable {
        /// A v1 result response to the attempt's request, with this result (JSON text).
        case result(String)
        /// A v1 error response to the attempt's request.
        case error(code: String, details: String = "{}")
        /// A reply body as given.
        case reply([UInt8])
        /// No reply within the attempt's timeout.
        case timeout
        /// The key is in flight already.
        case duplicateKey

        /// The reply body for the request whose id is `key`.
        func body(key: String?) -> [UInt8] {
            let id = key.map { #""\#($0)""# } ?? "null"
            switch self {
            case .result(let result):
                return Array(#"{"version":1,"id":\#(id),"result":\#(result)}"#.utf8)
            case .error(let code, let details):
                return Array(
                    #"{"version":1,"id":\#(id),"error":{"code":"\#(code)","message":"\#(code) says the test","details":\#(details)}}"#
                        .utf8)
            case .reply(let bytes):
                return bytes
            case .timeout, .duplicateKey:
                return []
            }
        }
    }

    /// What the client sent in one attempt.
    struct Sent: Sendable {
        let service: String
        let body: [UInt8]
        let key: String?
        let timeout: Duration

        /// The request envelope as JSON values.
        var envelope: [String: any Sendable] {
            (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: any Sendable]) ?? [:]
        }
    }

    private struct State {
        var answers: [Answer]
        var sent: [Sent] = []
        var started = false
    }

    private let state: Mutex<State>

    /// Answers attempts in turn; once they run out, every attempt times out.
    init(_ answers: [Answer] = []) {
        state = Mutex(State(answers: answers))
    }

    var sent: [Sent] { state.withLock { $0.sent } }

    func start() throws(TallyClientError) { state.withLock { $0.started = true } }

    func stop() async {}

    func requestStop() {}

    func attempt(
        service: String, body: [UInt8], key: String?, timeout: Duration
    ) async throws(TransportFailure) -> [UInt8] {
        let answer = state.withLock { state -> Answer in
            state.sent.append(Sent(service: service, body: body, key: key, timeout: timeout))
            return state.answers.isEmpty ? .timeout : state.answers.removeFirst()
        }
        switch answer {
        case .timeout: throw .timeout(brokers: [])
        case .duplicateKey: throw .duplicateKey(key ?? "")
        default: return answer.body(key: key)
        }
    }

    func connections() async -> [BrokerConnectionState] { [] }

    var executor: (any TaskExecutor)? { nil }
}

/// The pauses a client's back-off asked for, instead of sleeping through them.
final class PauseRecorder: Sendable {
    private let pauses = Mutex<[Duration]>([])

    var recorded: [Duration] { pauses.withLock { $0 } }

    func pause(_ duration: Duration) async throws {
        pauses.withLock { $0.append(duration) }
    }
}

extension TallyClient {
    /// A client over `transport`, its pauses recorded by `pauses`; started unless `running` is false.
    static func scripted(
        _ transport: ScriptedTransport, pauses: PauseRecorder = PauseRecorder(),
        configure: (inout TallyClientConfiguration) -> Void = { _ in }, running: Bool = true
    ) throws -> TallyClient {
        var configuration = TallyClientConfiguration(brokers: ["tcp://scripted:1"])
        configure(&configuration)
        let client = TallyClient(
            configuration: configuration, logger: Logger(label: "test"), transport: transport,
            pause: { try await pauses.pause($0) })
        if running { try client.start() }
        return client
    }
}
