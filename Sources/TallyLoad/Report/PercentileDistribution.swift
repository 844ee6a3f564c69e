import Histogram

/// The latency distribution of a run's successes in HdrHistogram's percentile-distribution text format
/// (`.hgrm`): one line per percentile step (value, percentile, count up to it, 1/(1−percentile)), then mean,
/// standard deviation, max and count. HdrHistogram's plotter
/// (https://hdrhistogram.github.io/HdrHistogram/plotFiles.html) draws it, several runs on one chart: the shape of
/// the tail that a handful of percentiles hides.
///
/// Values are in milliseconds, the plotter's unit and the report's.
package enum PercentileDistribution {
    /// The distribution of `histogram` (microseconds) as `.hgrm` text; `nil` when it holds no value (nothing to
    /// plot, and an empty distribution has no percentiles).
    package static func hgrm(_ histogram: Histogram<UInt64>, ticksPerHalfDistance: Int = 5) -> String? {
        guard histogram.totalCount > 0 else { return nil }
        var text = ""
        histogram.outputPercentileDistribution(
            to: &text, outputValueUnitScalingRatio: 1000, percentileTicksPerHalfDistance: ticksPerHalfDistance)
        return text
    }
}
