import Histogram

/// The latency distribution of one population of requests (the successes of a row, or its errors), in
/// microseconds: HdrHistogram values at three significant digits (a percentile is the highest value of its
/// bucket, as HdrHistogram reports it).
package struct LatencySummary: Codable, Sendable, Hashable {
    /// Requests measured.
    package var count: Int
    package var min: UInt64
    package var mean: Double
    package var standardDeviation: Double
    package var p50: UInt64
    package var p90: UInt64
    package var p95: UInt64
    package var p99: UInt64
    package var p999: UInt64
    package var max: UInt64

    /// `nil` when nothing was recorded: no latency is not a latency of 0.
    init?(_ histogram: Histogram<UInt64>) {
        guard histogram.totalCount > 0 else { return nil }
        count = Int(histogram.totalCount)
        min = histogram.min
        mean = (histogram.mean * 10).rounded() / 10
        standardDeviation = (histogram.stdDeviation * 10).rounded() / 10
        p50 = histogram.valueAtPercentile(50)
        p90 = histogram.valueAtPercentile(90)
        p95 = histogram.valueAtPercentile(95)
        p99 = histogram.valueAtPercentile(99)
        p999 = histogram.valueAtPercentile(99.9)
        max = histogram.max
    }

    enum CodingKeys: String, CodingKey {
        case count
        case min = "min_us", mean = "mean_us", standardDeviation = "stddev_us", p50 = "p50_us", p90 = "p90_us"
        case p95 = "p95_us", p99 = "p99_us", p999 = "p99_9_us", max = "max_us"
    }
}
