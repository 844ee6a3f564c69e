import Histogram

/// Latency percentiles in microseconds.
public struct LatencySummary: Codable, Sendable, Hashable {
    public var p50: UInt64
    public var p90: UInt64
    public var p99: UInt64
    public var p999: UInt64
    public var max: UInt64
    public var mean: Double

    init(_ histogram: Histogram<UInt64>) {
        let empty = histogram.totalCount == 0
        p50 = empty ? 0 : histogram.valueAtPercentile(50)
        p90 = empty ? 0 : histogram.valueAtPercentile(90)
        p99 = empty ? 0 : histogram.valueAtPercentile(99)
        p999 = empty ? 0 : histogram.valueAtPercentile(99.9)
        max = empty ? 0 : histogram.max
        mean = empty ? 0 : (histogram.mean * 10).rounded() / 10
    }

    public init(p50: UInt64, p90: UInt64, p99: UInt64, p999: UInt64, max: UInt64, mean: Double) {
        (self.p50, self.p90, self.p99, self.p999, self.max, self.mean) = (p50, p90, p99, p999, max, mean)
    }

    enum CodingKeys: String, CodingKey {
        case p50 = "p50_us", p90 = "p90_us", p99 = "p99_us", p999 = "p99_9_us", max = "max_us", mean = "mean_us"
    }
}

/// The outcome of one run.
public struct LoadSummary: Codable, Sendable, Hashable {
    public var sent: Int
    public var answered: Int
    /// Requests that got no answer within the timeout: must be 0.
    public var unanswered: Int
    /// Answers that were errors, by code.
    public var errors: [String: Int]
    public var elapsedSeconds: Double
    public var latency: LatencySummary

    /// Answers per second.
    public var throughput: Double { elapsedSeconds > 0 ? Double(answered) / elapsedSeconds : 0 }

    enum CodingKeys: String, CodingKey {
        case sent, answered, unanswered, errors, latency
        case elapsedSeconds = "elapsed_seconds"
    }
}

/// Everything `tally-load` reports, also as JSON (`--json`).
public struct LoadReport: Codable, Sendable {
    public var mix: String
    public var pacing: String
    public var tally: LoadSummary
    public var tallyThroughput: Double
    /// The raw libzmq ROUTER↔DEALER echo measured in the same run (`--baseline`).
    public var baseline: LoadSummary?
    public var baselineThroughput: Double?
    /// Tally as a ratio of the baseline: throughput (higher is better) and p50 latency (lower is better).
    public var throughputRatio: Double?
    public var p50LatencyRatio: Double?

    public init(mix: String, pacing: String, tally: LoadSummary, baseline: LoadSummary?) {
        self.mix = mix
        self.pacing = pacing
        self.tally = tally
        self.tallyThroughput = (tally.throughput * 10).rounded() / 10
        self.baseline = baseline
        self.baselineThroughput = baseline.map { ($0.throughput * 10).rounded() / 10 }
        if let baseline, baseline.throughput > 0, baseline.latency.p50 > 0 {
            throughputRatio = (tally.throughput / baseline.throughput * 1000).rounded() / 1000
            p50LatencyRatio = (Double(tally.latency.p50) / Double(baseline.latency.p50) * 100).rounded() / 100
        }
    }

    enum CodingKeys: String, CodingKey {
        case mix, pacing, tally, baseline
        case tallyThroughput = "tally_throughput_per_second"
        case baselineThroughput = "baseline_throughput_per_second"
        case throughputRatio = "throughput_ratio"
        case p50LatencyRatio = "p50_latency_ratio"
    }

    /// The human-readable report.
    public var text: String {
        var lines = ["mix: \(mix)   pacing: \(pacing)"]
        lines.append(Self.describe("tally", tally))
        if let baseline { lines.append(Self.describe("raw echo", baseline)) }
        if let throughputRatio, let p50LatencyRatio {
            lines.append(
                String(
                    format: "tally / raw echo: throughput %.1f%%, p50 latency %.2f×", throughputRatio * 100,
                    p50LatencyRatio))
        }
        let errors =
            tally.errors.isEmpty
            ? "none" : tally.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("errors by code: \(errors)")
        lines.append("requests without answer: \(tally.unanswered)")
        return lines.joined(separator: "\n")
    }

    static func describe(_ name: String, _ summary: LoadSummary) -> String {
        let l = summary.latency
        return String(
            format: "%@: %d answered in %.2f s = %.0f/s; latency µs p50 %llu  p90 %llu  p99 %llu  p99.9 %llu  max %llu",
            name, summary.answered, summary.elapsedSeconds, summary.throughput, l.p50, l.p90, l.p99, l.p999, l.max)
    }
}

import Foundation
