// The Swift snippets of the repository's README and of the TallyClient manual's articles that its other files here
// do not hold (Sources/TallyClient/TallyClient.docc), line for line, so that the build checks them. Each function
// holds one snippet; none of them runs.

import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TallyClient
import TallyProtocol

/// The scoped client, for code that is not a service.
func callWithScopedClient() async throws {
    let configuration = TallyClientConfiguration(brokers: ["tcp://127.0.0.1:5555"])
    try await withTallyClient(configuration) { tally in
        let time = RequestTime(timeZone: ZoneName("Europe/Berlin")!, now: Date())
        let today = time.today  // the date of `now` in that zone, as Tally counts it
        let summary = try await tally.streakSummary(
            StreakSummary.Params(
                time: time,
                goals: GoalParams(log: [GoalChange(effectiveDate: today, goal: 8_000)]),
                records: [DailyRecordParams(date: today.adding(days: -1), steps: 9_100)]))
        print(summary.currentStreak?.days ?? 0)
    }
}

/// The client as a service beside a Hummingbird application.
func runBesideHummingbird(router: Router<BasicRequestContext>, logger: Logger) async throws {
    let tally = try TallyClient(configuration: TallyClientConfiguration(brokers: ["tcp://tally:5555"]))
    let app = Application(router: router, configuration: .init(address: .hostname("0.0.0.0", port: 8080)))
    // Shut down in reverse order: the server drains its requests while the client still runs.
    let group = ServiceGroup(services: [tally, app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    try await group.run()
}

/// Telling failures apart.
func handleFailures(tally: TallyClient, params: StreakSummary.Params) async {
    do {
        let summary = try await tally.streakSummary(params, timeout: .milliseconds(800))
        print(summary.status)
    } catch {  // a TallyClientError: every call throws that type only
        switch error.code {
        case .invalidParams:  // the caller's data: details name the field
            print(error.details?.field ?? "", error.details?.problem ?? "")
        case .overloaded, .unavailable:  // busy or no worker, after the retries: try again later
            print(error.details?.retryAfterMilliseconds ?? 1000)
        case .timeout:  // no answer in time: each broker, and what the client knows of its connection
            print(error.brokers.map { "\($0.endpoint): \($0.status)" })
        default:  // an open set: treat codes you do not know like `internal`
            print(error.isFromServer, error.attempts, error)
        }
    }
}

/// A deadline passed on, and no retries for one call.
func passOnTheDeadline(
    tally: TallyClient, params: HistoryMonth.Params, callerDeadline: ContinuousClock.Instant
) async throws {
    // Pass on the deadline your own caller gave you, and do not retry this one.
    let month = try await tally.historyMonth(params, deadline: callerDeadline, retries: 0)
    print(month.month)
}

/// Configuration: brokers, patience, retries and CURVE.
func configure() throws {
    var configuration = TallyClientConfiguration(brokers: ["tcp://tally-a:5555", "tcp://tally-b:5555"])
    configuration.timeout = .seconds(2)  // per call, retries included; sent as the request's deadline
    configuration.retries = 2  // more attempts after a timeout, `overloaded` or `unavailable`
    configuration.retryBackoff = .milliseconds(100)  // doubled after each retry …
    configuration.maxRetryBackoff = .seconds(2)  // … up to this
    configuration.retryJitter = 0.2  // each wait lengthened at random by up to 20%
    configuration.security = try .curve(clientSecretKeyFile: "app1.key", serverPublicKey: "broker.pub")
    _ = configuration
}
