/// The outcome of one row of a run (one request kind, or all of them): how many requests were sent and how each
/// ended, the rates, and the latencies of successes and of errors apart.
///
/// Every request ends one way: it **succeeded** (a result), **failed** (an error response, counted by code), or
/// got **no answer** within the timeout. The error rate counts both of the last two. A quantity that was not
/// measured (no latency when nothing succeeded, no error rate when nothing ended) is `nil`, written `null` in
/// JSON and `n/a` in text, never 0.
package struct LoadSummary: Encodable, Sendable, Hashable {
    package var sent: Int
    /// Requests that got an answer: a result or an error.
    package var answered: Int
    package var succeeded: Int
    package var failed: Int
    /// Requests that got no answer within the timeout.
    package var unanswered: Int
    /// Requests sent that had not ended when the summary was made: 0 once a run has ended by itself; those that
    /// were still out when a stopped run stopped waiting for them. Not in the error rate: nothing is known of them.
    package var inFlight: Int
    /// Error answers, by code.
    package var errors: [String: Int]
    package var elapsedSeconds: Double
    /// Latencies of the successes.
    package var latency: LatencySummary?
    /// Latencies of the error answers.
    package var errorLatency: LatencySummary?

    init(_ row: LoadResults.Row, elapsedSeconds: Double) {
        sent = row.sent
        succeeded = row.succeeded
        failed = row.failed
        answered = row.succeeded + row.failed
        unanswered = row.unanswered
        inFlight = max(0, row.sent - row.succeeded - row.failed - row.unanswered)
        errors = row.errorCodes
        self.elapsedSeconds = elapsedSeconds
        latency = LatencySummary(row.successes)
        errorLatency = LatencySummary(row.errors)
    }

    /// Requests that ended (answered or given up on).
    package var finished: Int { answered + unanswered }

    /// Failed and unanswered requests as a fraction of those that ended; `nil` when none ended.
    package var errorRate: Double? { finished > 0 ? Double(failed + unanswered) / Double(finished) : nil }

    /// Successes per second: the throughput that counts.
    package var successesPerSecond: Double { elapsedSeconds > 0 ? Double(succeeded) / elapsedSeconds : 0 }

    /// Answers of any kind per second (what the broker kept up with, errors included).
    package var answersPerSecond: Double { elapsedSeconds > 0 ? Double(answered) / elapsedSeconds : 0 }

    enum CodingKeys: String, CodingKey {
        case sent, answered, succeeded, failed, unanswered, errors, latency
        case inFlight = "in_flight"
        case elapsedSeconds = "elapsed_seconds", errorLatency = "error_latency", errorRate = "error_rate"
        case successesPerSecond = "successes_per_second", answersPerSecond = "answers_per_second"
    }

    /// Writes `null` for what was not measured (the synthesized encoder would leave the key out).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sent, forKey: .sent)
        try container.encode(answered, forKey: .answered)
        try container.encode(succeeded, forKey: .succeeded)
        try container.encode(failed, forKey: .failed)
        try container.encode(unanswered, forKey: .unanswered)
        try container.encode(inFlight, forKey: .inFlight)
        try container.encode(errors, forKey: .errors)
        try container.encode(errorRate.map { ($0 * 1_000_000).rounded() / 1_000_000 }, forKey: .errorRate)
        try container.encode((elapsedSeconds * 1000).rounded() / 1000, forKey: .elapsedSeconds)
        try container.encode((successesPerSecond * 10).rounded() / 10, forKey: .successesPerSecond)
        try container.encode((answersPerSecond * 10).rounded() / 10, forKey: .answersPerSecond)
        try container.encode(latency, forKey: .latency)
        try container.encode(errorLatency, forKey: .errorLatency)
    }
}
