import Foundation
import Synchronization
import TallyClient
import TallyClientTesting
import TallyJSONCoding
import TallyProtocol
import TallyTesting
import Testing

/// `FakeTally`, the double a backend's tests use: the real client against handlers, answered as Tally answers.
@Suite struct FakeTallyTests {
    /// Every Protocol example with a result, through the typed call: the fake's handler returns the example's
    /// result, and the client decodes it to the same value.
    @Test func everyExamplesResultComesBackThroughTheRealClient() async throws {
        var replayed = 0
        for example in try ProtocolExample.all() {
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: example.file)) as? [String: Any]
            guard let request = document?["request"] as? [String: Any], let name = request["method"] as? String,
                let method = TallyMethods.v1.first(where: { $0.name == name }),
                let result = (document?["response"] as? [String: Any])?["result"]
            else { continue }
            let params = try JSONSerialization.data(withJSONObject: request["params"] ?? [String: Any]())
            let resultText = try JSONSerialization.data(withJSONObject: result)
            if try await Self.replay(method, params: Array(params), result: Array(resultText)) { replayed += 1 }
        }
        // The examples of errors, and results with `$any` in them, are not typed values.
        #expect(replayed >= 25, "examples replayed through the fake: \(replayed)")
    }

    /// One example's method, opened from the table: `false` when its params or result are not a typed value (an
    /// example of bad params, or a result with `$any` in it).
    static func replay<M: TallyMethod>(_ method: M.Type, params: [UInt8], result: [UInt8]) async throws -> Bool {
        guard let params = try? TallyJSON.decoder().decode(M.Params.self, from: params),
            let expected = try? TallyJSON.decoder().decode(M.Result.self, from: result)
        else { return false }
        let fake = FakeTally()
        fake.answer(M.self) { _ in expected }
        let client = fake.client()
        let answered = try await client.call(M.self, params)
        // Compared as JSON values: a map member (the calendar's days) is written in its dictionary's order.
        let written = try [answered, expected].map { result in
            try JSONSerialization.jsonObject(with: Data(try TallyJSON.resultEncoder().encodeToBytes(result)))
                as? NSDictionary
        }
        #expect(written[0] == written[1], "\(M.name)")
        #expect(fake.requests.map(\.method) == [M.name])
        await client.stop()
        return true
    }

    @Test func paramsThatDoNotDecodeAreAnsweredInvalidParamsNamingTheField() async throws {
        let fake = FakeTally()
        fake.answer(HistoryMonths.self) { _ in
            Issue.record("not called for bad params"); throw FakeTally.NoAnswer()
        }
        let client = fake.client()
        let body =
            #"{"version":1,"id":"bad","method":"history.months","params":{"time_zone":"UTC","today":"2026-02-30","records":[]}}"#
        let reply = try await client.send(rawBody: Array(body.utf8), service: "tally.history")
        let error = try #require(
            (try JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalid_params")
        #expect((error["details"] as? [String: Any])?["field"] as? String == "params.today", "\(error)")
    }

    @Test func aHandlersErrorIsTheAnswerAndRetryableOnesAreRetried() async throws {
        let fake = FakeTally()
        let calls = Counter()
        fake.answer(StreakSummary.self) { params in
            if calls.next() == 1 {
                throw TallyError(.overloaded, "busy", details: ErrorDetails(retryAfterMilliseconds: 10))
            }
            throw TallyError(.proRequired, "needs Pro")
        }
        let client = fake.client()
        do {
            // Time enough that even a starved machine sends the second attempt well before the deadline.
            _ = try await client.streakSummary(Self.streakParams(), timeout: .seconds(60))
            Issue.record("the handler answers an error")
        } catch {
            #expect(error.code == .proRequired && error.isFromServer)
            #expect(error.attempts.map(\.code) == [.overloaded, .proRequired], "\(error)")
        }
        #expect(fake.requests.count == 2)
    }

    /// The retries that follow a lost attempt are `RetryTests`' (on a scripted clock); here, that no answer from the
    /// fake is the client's own timeout.
    @Test func aCallTheFakeDoesNotAnswerTimesOut() async throws {
        let fake = FakeTally()
        fake.answer(StreakSummary.self) { _ in throw FakeTally.NoAnswer() }
        let client = fake.client { $0.retries = 0 }
        do {
            _ = try await client.streakSummary(Self.streakParams(), timeout: .milliseconds(500))
            Issue.record("no answer")
        } catch {
            #expect(error.code == .timeout && !error.isFromServer, "\(error)")
        }
        #expect(fake.requests.count == 1)
    }

    @Test func aMethodWithoutAHandlerOrUnknownIsSaidSo() async throws {
        let fake = FakeTally()
        let client = fake.client()
        do {
            _ = try await client.streakSummary(Self.streakParams(), retries: 0)
            Issue.record("nothing answers it")
        } catch {
            #expect(error.code == .unknownMethod && error.message.contains("no handler for it"), "\(error)")
            #expect(error.attempts.count <= 1, "not retried: \(error)")
        }
        fake.answer(StreakSummary.self) { params in
            StreakSummary.Result(status: .goalTrackingOff, asOf: params.time.today)
        }
        do {
            _ = try await client.call(StreakSummary.self, Self.streakParams(), service: .history)
            Issue.record("tally.history does not serve streak.summary")
        } catch {
            #expect(error.code == .unknownMethod && error.message.contains("tally.history"), "\(error)")
        }
        let unknown = #"{"version":1,"id":"u","method":"sleep.night","params":{}}"#
        let reply = String(
            decoding: try await client.send(rawBody: Array(unknown.utf8), service: "tally.streak"), as: UTF8.self)
        #expect(reply.contains(#""code":"unknown_method""#), "\(reply)")
    }

    @Test func pingDescribeAndMMIAreAnsweredAndRequestsRecorded() async throws {
        let fake = FakeTally()
        fake.answer(StreakSummary.self) { params in
            StreakSummary.Result(status: .goalTrackingOff, asOf: params.time.today)
        }
        let client = fake.client()
        #expect(try await client.ping(service: .streak).service == "tally.streak")
        #expect(try await client.describe(service: .streak).methods.map(\.name).contains("streak.summary"))
        #expect(try await client.isServiceAvailable("tally.streak"))
        #expect(try await !client.isServiceAvailable("tally.workout"))
        let deadline = ContinuousClock.now + .seconds(20)
        _ = try await client.streakSummary(Self.streakParams(), deadline: deadline)
        let sent = try #require(fake.requests.last)
        #expect(sent.method == "streak.summary" && sent.service == "tally.streak" && sent.deadline != nil)
        #expect(fake.params(of: StreakSummary.self).count == 1)
    }

    static func streakParams() -> StreakSummary.Params {
        let time = RequestTime(timeZone: ZoneName("UTC")!, today: LocalDate(year: 2026, month: 3, day: 10)!)
        return StreakSummary.Params(time: time, goals: GoalParams(log: []), records: [])
    }
}

/// Counts calls across tasks.
final class Counter: Sendable {
    private let count = Atomic(0)

    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}
