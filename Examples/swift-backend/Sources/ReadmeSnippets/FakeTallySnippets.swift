// The snippets of the TallyClient manual's "Testing your own code" and of the TallyClientTesting catalogue that the
// example's tests do not hold, line for line, so that the build checks them. None of them runs.

import TallyClient
import TallyClientTesting
import TallyProtocol

/// The fake in brief.
func aFakeInBrief() -> TallyClient {
    let tally = FakeTally()
    tally.answer(StreakSummary.self) { params in
        StreakSummary.Result(status: .goalTrackingOff, asOf: params.time.today)
    }
    let client = tally.client()  // hand it to the code under test
    return client
}

/// Answers that are not results.
func aFakeThatFails() -> TallyClient {
    let tally = FakeTally()
    tally.answer(HistoryDashboard.self) { _ in
        throw TallyError(.proRequired, "the weekly chart is for Pro users", details: ErrorDetails(field: "params.mode"))
    }
    tally.answer(StreakSummary.self) { _ in throw FakeTally.NoAnswer() }
    let client = tally.client { configuration in
        configuration.timeout = .milliseconds(300)
        configuration.retries = 0
    }
    return client
}

/// What was sent.
func whatWasSent(tally: FakeTally) {
    let sent = tally.requests.map { "\($0.service) \($0.method)" }  // ["tally.streak streak.summary"]
    let deadlines = tally.requests.compactMap(\.deadline)  // each call's end, as the workers would see it
    print(sent, deadlines)
}
