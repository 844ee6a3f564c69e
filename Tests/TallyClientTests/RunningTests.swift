import Testing

@testable import TallyClient

/// A call made before the client runs waits for it, within its own deadline; stopping ends every wait; and a
/// configuration that cannot work is refused when the client is made.
@Suite struct RunningTests {
    @Test func aCallBeforeTheClientRunsIsSentOnceItDoes() async throws {
        let transport = ScriptedTransport([.result(#"{"service":"tally.history"}"#)])
        let client = try TallyClient.scripted(transport, running: false)
        let early = Task { () throws(TallyClientError) -> Int in
            _ = try await client.send(rawBody: Array(#"{"id":"early"}"#.utf8), service: "tally.history")
            return transport.sent.count
        }
        #expect(await Self.eventually { client.gate.waiting == 1 }, "the call waits for the client")
        #expect(transport.sent.isEmpty, "nothing is sent before the client runs")
        try client.start()
        #expect(try await early.value == 1)
    }

    @Test func aCallToAClientThatNeverRunsEndsAtItsDeadline() async throws {
        let client = try TallyClient.scripted(ScriptedTransport(), running: false)
        do {
            _ = try await client.ping(timeout: .milliseconds(50))
            Issue.record("nobody runs the client")
        } catch {
            #expect(error.code == .clientNotRunning && error.message.contains("withTallyClient"), "\(error)")
        }
    }

    @Test func stoppingEndsTheCallsWaitingForTheClientToRun() async throws {
        let client = try TallyClient.scripted(ScriptedTransport(), running: false)
        let waiting = Task { () -> TallyClientError? in
            do throws(TallyClientError) {
                _ = try await client.ping(timeout: .seconds(60))
                return nil
            } catch {
                return error
            }
        }
        #expect(await Self.eventually { client.gate.waiting == 1 })
        await client.stop()
        #expect(await waiting.value?.code == .clientStopped)
        do throws(TallyClientError) {
            _ = try await client.ping()
            Issue.record("a stopped client answers nothing")
        } catch {
            #expect(error.code == .clientStopped)
        }
    }

    @Test func aCancelledCallStopsWaiting() async throws {
        let client = try TallyClient.scripted(ScriptedTransport(), running: false)
        let waiting = Task { () -> TallyClientError? in
            do throws(TallyClientError) {
                _ = try await client.ping(timeout: .seconds(60))
                return nil
            } catch {
                return error
            }
        }
        #expect(await Self.eventually { client.gate.waiting == 1 })
        waiting.cancel()
        #expect(await waiting.value?.code == .cancelled)
        #expect(client.gate.waiting == 0)
    }

    /// Settings that cannot work, and the word the refusal names.
    enum Unworkable: String, CaseIterable, Sendable {
        case noBroker = "at least one broker"
        case notZeroMQ = "http://tally:5555"
        case negativeJitter = "retryJitter"
        case negativeRetries = "retries"
        case zeroHeartbeat = "heartbeatInterval"
        case zeroTimeout = "timeout"

        func apply(to configuration: inout TallyClientConfiguration) {
            switch self {
            case .noBroker: configuration.brokers = []
            case .notZeroMQ: configuration.brokers = ["http://tally:5555"]
            case .negativeJitter: configuration.retryJitter = -1
            case .negativeRetries: configuration.retries = -1
            case .zeroHeartbeat: configuration.heartbeatInterval = .zero
            case .zeroTimeout: configuration.timeout = .zero
            }
        }
    }

    @Test(arguments: Unworkable.allCases)
    func aConfigurationThatCannotWorkIsRefused(_ setting: Unworkable) {
        var configuration = TallyClientConfiguration(brokers: ["tcp://127.0.0.1:5555"])
        setting.apply(to: &configuration)
        do {
            _ = try TallyClient(configuration: configuration)
            Issue.record("refused: \(setting)")
        } catch {
            #expect(error.code == .invalidConfiguration && error.message.contains(setting.rawValue), "\(error)")
        }
    }

    static func eventually(_ condition: () -> Bool) async -> Bool {
        // A hang guard of 20 s: the condition is checked every 5 ms until then.
        for _ in 0..<4000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}
