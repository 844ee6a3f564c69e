import Foundation
import TallyProtocol
import Testing

@testable import TallyClient

/// Retries, back-off and deadlines, as the client decides them: each attempt, each pause and each error from a
/// scripted transport, with no socket and no sleeping.
@Suite struct RetryTests {
    /// A `system.ping` result.
    static let pong =
        #"{"server_version":"0","protocol_versions":[1],"uptime_seconds":1,"service":"tally.history","worker":"w","connection":0}"#

    @Test func overloadedIsRetriedAfterTheRetryAfterAskedForThenAnswered() async throws {
        let transport = ScriptedTransport([
            .error(code: "overloaded", details: #"{"retry_after_ms":400}"#), .result(#"{"service":"tally.history"}"#),
        ])
        let pauses = PauseRecorder()
        let client = try TallyClient.scripted(transport, pauses: pauses)
        let body = try await client.send(
            rawBody: Array(#"{"version":1,"id":"r-1","method":"system.ping"}"#.utf8), service: "tally.history")
        #expect(String(decoding: body, as: UTF8.self).contains(#""result""#))
        #expect(transport.sent.count == 2 && transport.sent.allSatisfy { $0.key == "r-1" }, "the same request again")
        #expect(pauses.recorded.count == 1 && pauses.recorded[0] >= .milliseconds(400), "\(pauses.recorded)")
    }

    /// The back-off doubles from `retryBackoff`, each pause lengthened by up to `retryJitter` of it, and never
    /// beyond `maxRetryBackoff`.
    @Test func theBackOffDoublesIsJitteredAndCapped() async throws {
        for _ in 0..<20 {
            let transport = ScriptedTransport(Array(repeating: .error(code: "unavailable"), count: 5))
            let pauses = PauseRecorder()
            let client = try TallyClient.scripted(transport, pauses: pauses) { configuration in
                configuration.retries = 4
                configuration.timeout = .seconds(60)
                configuration.retryBackoff = .milliseconds(100)
                configuration.maxRetryBackoff = .milliseconds(300)
                configuration.retryJitter = 0.2
            }
            await #expect(throws: TallyClientError.self) { try await client.ping() }
            let recorded = pauses.recorded
            #expect(recorded.count == 4, "\(recorded)")
            #expect(recorded[0] >= .milliseconds(100) && recorded[0] <= .milliseconds(120), "\(recorded)")
            #expect(recorded[1] >= .milliseconds(200) && recorded[1] <= .milliseconds(240), "\(recorded)")
            #expect(recorded[2...].allSatisfy { $0 == .milliseconds(300) }, "capped: \(recorded)")
        }
    }

    @Test func jitterSpreadsClientsRefusedTogether() async throws {
        var first: Set<Duration> = []
        for _ in 0..<20 {
            let transport = ScriptedTransport([.error(code: "unavailable"), .result("{}")])
            let pauses = PauseRecorder()
            let client = try TallyClient.scripted(transport, pauses: pauses)
            _ = try await client.send(rawBody: Array(#"{"id":"x"}"#.utf8), service: "tally.history")
            first.insert(pauses.recorded[0])
        }
        #expect(first.count > 10, "pauses differ from client to client: \(first)")
    }

    @Test func timeoutsAreRetriedWithinTheBudgetSpreadOverTheAttemptsLeft() async throws {
        let transport = ScriptedTransport()  // every attempt times out
        let client = try TallyClient.scripted(transport) { $0.timeout = .seconds(3) }
        do {
            _ = try await client.ping()
            Issue.record("no attempt was answered")
        } catch {
            #expect(error.code == .timeout, "\(error)")
            #expect(error.attempts.count == 3 && error.attempts.allSatisfy { $0.code == .timeout }, "\(error)")
            #expect(error.message.contains("3 s") || error.message.contains("2.9 s"), "\(error.message)")
        }
        let timeouts = transport.sent.map(\.timeout)
        #expect(timeouts.count == 3, "\(timeouts)")
        #expect(timeouts[0] <= .seconds(1) && timeouts[0] > .milliseconds(900), "a third of 3 s: \(timeouts)")
    }

    @Test func anErrorThatIsNotRetryableIsTheAnswerAtOnce() async throws {
        let transport = ScriptedTransport([.error(code: "invalid_params", details: #"{"field":"params.x"}"#)])
        let client = try TallyClient.scripted(transport)
        do {
            _ = try await client.ping()
            Issue.record("an error response is an error")
        } catch {
            #expect(error.code == .invalidParams && error.isFromServer && error.details?.field == "params.x")
            #expect(error.attempts.isEmpty, "one attempt: no history")
        }
        #expect(transport.sent.count == 1)
    }

    @Test func aCallsRetriesOverrideTheClients() async throws {
        let transport = ScriptedTransport([.error(code: "unavailable"), .result("{}")])
        let client = try TallyClient.scripted(transport) { $0.retries = 2 }
        do {
            _ = try await client.ping(retries: 0)
            Issue.record("no retry was allowed")
        } catch {
            #expect(error.code == .unavailable, "\(error)")
        }
        #expect(transport.sent.count == 1)
    }

    /// A deadline the caller passes on binds when it is earlier than the timeout: the attempt waits no longer, and
    /// the request carries it to the workers.
    @Test func aCallersDeadlineBindsAndTravelsWithTheRequest() async throws {
        let transport = ScriptedTransport([.result(Self.pong)])
        let client = try TallyClient.scripted(transport) { $0.timeout = .seconds(30) }
        let wallBefore = Instant.now
        _ = try await client.ping(deadline: .now + .seconds(2), retries: 0)
        let sent = try #require(transport.sent.first)
        #expect(sent.timeout <= .seconds(2) && sent.timeout > .seconds(1), "\(sent.timeout)")
        let deadlineText = try #require(sent.envelope["deadline"] as? String)
        let ahead = try RFC3339.parse(deadlineText).instant.duration(since: wallBefore)
        #expect(ahead > .milliseconds(1500) && ahead < .milliseconds(2500), "the caller's deadline: \(deadlineText)")
    }

    @Test func aDeadlineThatHasPassedEndsTheCallWithoutSendingIt() async throws {
        let transport = ScriptedTransport([.result("{}")])
        let client = try TallyClient.scripted(transport)
        do {
            _ = try await client.ping(deadline: .now - .seconds(1))
            Issue.record("a call out of time is not made")
        } catch {
            #expect(error.code == .timeout, "\(error)")
        }
        #expect(transport.sent.isEmpty, "nothing sent")
    }

    @Test func aRequestIDAlreadyInFlightIsSaidSo() async throws {
        let transport = ScriptedTransport([.duplicateKey])
        let client = try TallyClient.scripted(transport)
        do {
            _ = try await client.send(rawBody: Array(#"{"id":"same"}"#.utf8), service: "tally.history")
            Issue.record("a duplicate id is refused")
        } catch {
            #expect(error.code == .duplicateRequestID && error.message.contains("'same'"), "\(error)")
        }
    }
}
