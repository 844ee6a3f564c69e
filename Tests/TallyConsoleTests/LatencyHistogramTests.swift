import Testing

@testable import TallyConsole

/// Quantiles from logarithmic buckets: within 12.5% of the true value at any scale, exact for a single value's
/// bucket, and nothing at all without samples.
@Suite struct LatencyHistogramTests {
    @Test func everyLatencyFallsInTheBucketThatCoversIt() {
        var previous = -1
        for microseconds: UInt64 in [0, 1, 3, 4, 5, 7, 8, 15, 16, 100, 999, 1000, 65_535, 1 << 20, 1 << 30] {
            let bucket = LatencyHistogram.bucket(of: microseconds)
            #expect(LatencyHistogram.range(of: bucket).contains(Double(microseconds)), "\(microseconds) µs")
            #expect(bucket >= previous, "buckets grow with the latency")
            previous = bucket
        }
        #expect(LatencyHistogram.bucket(of: .max) == LatencyHistogram.bucketCount - 1, "longer ones in the last")
    }

    @Test func aBucketIsAtMostAQuarterOfItsLowerBoundWide() {
        for bucket in 4..<LatencyHistogram.bucketCount {
            let range = LatencyHistogram.range(of: bucket)
            #expect(range.upperBound - range.lowerBound <= range.lowerBound / 4)
            #expect(range.lowerBound == LatencyHistogram.range(of: bucket - 1).upperBound, "no gap, no overlap")
        }
    }

    @Test(arguments: [0.5, 0.9, 0.99])
    func quantilesAreWithinAnEighthOfTheTrueValue(quantile: Double) throws {
        // 1 ms to 100 ms, spread evenly: the true quantile is easy to state.
        var histogram = LatencyHistogram()
        let samples = (1...10_000).map { UInt64(1000 + $0 * 99 / 10) }
        for sample in samples.shuffled() { histogram.record(microseconds: sample) }
        let truth = Double(samples.sorted()[Int((quantile * Double(samples.count)).rounded(.up)) - 1])
        let measured = try #require(histogram.value(atQuantile: quantile))
        #expect(abs(measured - truth) / truth <= 0.125, "p\(Int(quantile * 100)): \(measured) µs for \(truth) µs")
    }

    @Test func p99OfAFewSlowRequestsAmongManyFastOnesIsSlow() throws {
        var histogram = LatencyHistogram()
        for _ in 0..<980 { histogram.record(microseconds: 500) }
        for _ in 0..<20 { histogram.record(microseconds: 200_000) }
        #expect(try #require(histogram.value(atQuantile: 0.5)) < 600)
        #expect(try #require(histogram.value(atQuantile: 0.99)) > 175_000)
        #expect(LatencyHistogram().value(atQuantile: 0.5) == nil)
    }
}
