/// Everything `tally-load` reports: the whole run, each request kind, the raw-echo baseline, the thresholds. Also
/// written as JSON (`--json`), the shape `Benchmarks/run-e2e.sh` and the end-to-end tests read:
///
/// ```json
/// {"mix": "…", "pacing": "…", "body_bytes": 97, "tally": {summary}, "methods": [{"method": "…", …summary}],
///  "baseline": {summary} | null, "throughput_ratio": 0.055 | null, "p50_latency_ratio": 4.15 | null,
///  "thresholds": [{"name", "method", "unit", "limit", "measured", "passed", "text"}], "passed": true,
///  "brokers": […], "stages": [{"duration_seconds", "target"}] | null, "stopped_by": "SIGINT" | null}
/// ```
///
/// A summary: `sent`, `answered`, `succeeded`, `failed`, `unanswered`, `in_flight`, `errors` (by code), `error_rate`,
/// `elapsed_seconds`, `successes_per_second`, `answers_per_second`, and `latency` / `error_latency` (`count`,
/// `min_us`, `mean_us`, `stddev_us`, `p50_us`, `p90_us`, `p95_us`, `p99_us`, `p99_9_us`, `max_us`), `null` when
/// nothing was measured.
package struct LoadReport: Encodable, Sendable {
    /// One request kind's row.
    package struct MethodRow: Encodable, Sendable {
        package var method: String
        package var summary: LoadSummary

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(method, forKey: Key("method"))
            try summary.encode(to: encoder)
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    package var mix: String
    package var pacing: String
    /// The average request body's size in bytes (what the raw echo sends too), `nil` when not known.
    package var bodyBytes: Int?
    /// All request kinds together.
    package var tally: LoadSummary
    /// Each request kind, in the order of the mix (or of the bodies read).
    package var methods: [MethodRow]
    /// The raw libzmq ROUTER↔DEALER echo measured in the same run (`--baseline`).
    package var baseline: LoadSummary?
    /// Tally's successes per second as a fraction of the echo's (higher is better).
    package var throughputRatio: Double?
    /// Tally's p50 latency of successes as a multiple of the echo's (lower is better).
    package var p50LatencyRatio: Double?
    package var thresholds: [ThresholdOutcome]
    /// How each broker's connections stood at the end of the run, and how often they were lost during it (a broker
    /// that went silent, or a false alarm on a machine too busy to answer heartbeats).
    package var brokers: [BrokerRow] = []
    /// The stages of a staged run (`--stages`), `nil` for a steady one.
    package var stages: LoadStages?
    /// Why the run stopped before its end: `SIGINT`, `SIGTERM` or `abort-on-fail`; `nil` when it ran to its end.
    package var stoppedBy: String?

    /// One broker endpoint, over every client connection of the run (`--connections`).
    package struct BrokerRow: Encodable, Sendable, Hashable {
        package var endpoint: String
        /// Client connections up at the end of the run.
        package var connected: Int
        /// Times a connection that was up was lost, all clients together.
        package var losses: Int

        package init(endpoint: String, connected: Int, losses: Int) {
            self.endpoint = endpoint
            self.connected = connected
            self.losses = losses
        }
    }

    package init(
        mix: String, pacing: String, snapshot: LoadSnapshot, baseline: LoadSummary?, thresholds: LoadThresholds
    ) {
        self.mix = mix
        self.pacing = pacing
        tally = snapshot.all
        methods = snapshot.rows.map { MethodRow(method: $0.label, summary: $0.summary) }
        self.baseline = baseline
        if let baseline, baseline.successesPerSecond > 0 {
            throughputRatio = (tally.successesPerSecond / baseline.successesPerSecond * 1000).rounded() / 1000
        }
        if let p50 = tally.latency?.p50, let echoP50 = baseline?.latency?.p50, echoP50 > 0 {
            p50LatencyRatio = (Double(p50) / Double(echoP50) * 100).rounded() / 100
        }
        self.thresholds = thresholds.evaluate(snapshot)
    }

    /// Whether every threshold passed (`true` when none is set).
    package var passed: Bool { thresholds.allSatisfy(\.passed) }

    enum CodingKeys: String, CodingKey {
        case mix, pacing, tally, methods, baseline, thresholds, passed, brokers, stages
        case stoppedBy = "stopped_by"
        case bodyBytes = "body_bytes"
        case throughputRatio = "throughput_ratio", p50LatencyRatio = "p50_latency_ratio"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mix, forKey: .mix)
        try container.encode(pacing, forKey: .pacing)
        try container.encode(bodyBytes, forKey: .bodyBytes)
        try container.encode(tally, forKey: .tally)
        try container.encode(methods, forKey: .methods)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(throughputRatio, forKey: .throughputRatio)
        try container.encode(p50LatencyRatio, forKey: .p50LatencyRatio)
        try container.encode(thresholds, forKey: .thresholds)
        try container.encode(passed, forKey: .passed)
        try container.encode(brokers, forKey: .brokers)
        try container.encode(
            stages.map {
                $0.stages.map { StageRow(durationSeconds: LoadStages.Stage.seconds($0.duration), target: $0.target) }
            },
            forKey: .stages)
        try container.encode(stoppedBy, forKey: .stoppedBy)
    }

    /// A stage in JSON: `{"duration_seconds": 10, "target": 100}`.
    struct StageRow: Encodable {
        var durationSeconds: Double
        var target: Double

        enum CodingKeys: String, CodingKey {
            case durationSeconds = "duration_seconds", target
        }
    }
}
