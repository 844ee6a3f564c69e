import Foundation
import Logging
import TallyClient
import TallyClientTesting
import TallyProtocol
import Testing

@testable import StepsAPI

/// The routes against `FakeTally`: the real client, answered in process by the handlers each test gives, so these
/// tests need no broker, no worker and no Tally binaries. `test_backend.py` runs the whole process against a real
/// Tally.
@Suite struct StreakRoutesTests {
    let logger = Logger(label: "steps-api-tests")

    @Test func aUsersCardIsMadeFromTheirStreakSummary() async throws {
        let tally = FakeTally()
        tally.answer(StreakSummary.self) { params in
            let today = params.time.today
            return StreakSummary.Result(
                status: .active, asOf: today,
                today: StreakSummary.TodayResult(
                    date: today, steps: 3_000, goal: 8_000, progress: 0.375, state: .inProgress, stepsToGo: 5_000,
                    lockedInDay: nil))
        }
        let client = tally.client()  // a running TallyClient: hand it to the code under test
        let card = try await StreakRoutes(tally: client).userStreak(id: "grace", logger: logger)

        #expect(card.goalTracking)
        #expect(card.today?.stepsToGo == 5_000 && card.today?.state == "in_progress")
        let sent = try #require(tally.params(of: StreakSummary.self).first)
        #expect(sent.time.zone == .named(ZoneName("America/New_York")!))
        #expect(sent.goals.log.map(\.goal) == [10_000])
        #expect(sent.records.count == 13, "twelve days before today and today")
        #expect(card.asOf == sent.time.today.description)
    }

    /// How each of Tally's answers reaches the app: the HTTP status, the code and, for bad input, the field in the
    /// app's own terms.
    @Test(arguments: Refusal.allCases) func tallysRefusalsBecomeHTTPAnswers(_ refusal: Refusal) async throws {
        let tally = FakeTally()
        let error = refusal.error
        tally.answer(StreakSummary.self) { _ in
            if let error { throw error }
            throw FakeTally.NoAnswer()
        }
        let client = tally.client { configuration in
            configuration.timeout = .milliseconds(300)
            configuration.retries = 0
        }
        let routes = StreakRoutes(tally: client)
        let time = RequestTime(timeZone: ZoneName("UTC")!, now: Date())
        let params = StreakSummary.Params(time: time, goals: .constant(8_000, at: time))
        do {
            _ = try await routes.summary(params, logger: logger)
            Issue.record("\(refusal): answered")
        } catch {
            let answer = StreakRequest.inBodyTerms(error)
            #expect(answer.status.code == refusal.status, "\(refusal): \(answer.status)")
            #expect(answer.body.error == refusal.code)
            #expect(answer.body.field == refusal.field)
            #expect(answer.retryAfterSeconds == refusal.retryAfterSeconds)
        }
    }

    /// A user's own stored data that Tally refuses is this backend's fault: 500, not the caller's 400.
    @Test func storedDataTallyRefusesIsAnInternalError() async throws {
        let tally = FakeTally()
        tally.answer(StreakSummary.self) { _ in throw Refusal.badRecord.error! }
        let client = tally.client()
        await #expect { try await StreakRoutes(tally: client).userStreak(id: "ada", logger: logger) } throws: {
            ($0 as? APIError)?.status.code == 500
        }
    }

    @Test func healthSaysWhetherTallyServesStreaks() async {
        let serving = FakeTally()
        serving.answer(StreakSummary.self) { _ in throw FakeTally.NoAnswer() }
        let idle = FakeTally()
        for (fake, status) in [(serving, 200), (idle, 503)] {
            let client = fake.client()
            #expect(await StreakRoutes(tally: client).health().status?.code == status)
        }
    }
}

/// One way Tally says no, and what the app gets for it.
enum Refusal: CaseIterable, Sendable, CustomTestStringConvertible {
    case badRecord, overloaded, noWorker, noAnswer, aCodeFromALaterTally

    var testDescription: String { "\(self)" }

    /// What the fake's handler throws; `nil` for no answer at all.
    var error: TallyError? {
        switch self {
        case .badRecord:
            TallyError(
                .invalidParams, "params.records[0].steps: must be ≥ 0",
                details: ErrorDetails(field: "params.records[0].steps", problem: "must be ≥ 0"))
        case .overloaded:
            TallyError(.overloaded, "busy", details: ErrorDetails(retryAfterMilliseconds: 2_500))
        case .noWorker:
            TallyError(.unavailable, "no live worker serves tally.streak")
        case .aCodeFromALaterTally:
            TallyError(ErrorCode(rawValue: "quota_exceeded"), "a code this backend does not know")
        case .noAnswer:
            nil
        }
    }

    var status: Int {
        switch self {
        case .badRecord: 400
        case .overloaded, .noWorker: 503
        case .noAnswer: 504
        case .aCodeFromALaterTally: 502
        }
    }

    var code: String {
        switch self {
        case .badRecord: "invalid_params"
        case .overloaded: "overloaded"
        case .noWorker: "unavailable"
        case .noAnswer: "timeout"
        case .aCodeFromALaterTally: "quota_exceeded"
        }
    }

    var field: String? { self == .badRecord ? "records[0].steps" : nil }

    var retryAfterSeconds: Int? {
        switch self {
        case .overloaded: 3
        case .noWorker: 1
        default: nil
        }
    }
}
