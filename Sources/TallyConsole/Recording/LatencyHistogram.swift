/// Latencies counted in logarithmic buckets, for quantiles over a window without keeping each sample.
///
/// Four buckets per power of two of microseconds (the first four hold 0–3 µs exactly): a bucket is at most a
/// quarter of its lower bound wide, so a quantile read as its bucket's midpoint is within 12.5% of the true value
/// (HdrHistogram's idea with two significant bits). Latencies from 1 µs to 2^31 µs (36 minutes, far past any
/// request timeout) fit; longer ones count in the last bucket. Recording is an index computation and an increment:
/// it runs for every delivered reply, under the console's lock, on the broker's thread.
struct LatencyHistogram: Sendable, Hashable {
    static let bucketCount = 124

    private(set) var counts = [UInt32](repeating: 0, count: bucketCount)
    private(set) var total = 0

    mutating func record(microseconds: UInt64) {
        counts[Self.bucket(of: microseconds)] &+= 1
        total += 1
    }

    mutating func add(_ other: LatencyHistogram) {
        guard other.total > 0 else { return }
        for index in counts.indices { counts[index] &+= other.counts[index] }
        total += other.total
    }

    mutating func reset() {
        guard total > 0 else { return }
        for index in counts.indices { counts[index] = 0 }
        total = 0
    }

    /// The latency in microseconds below which a fraction `quantile` (0...1) of the samples lie, as the midpoint of
    /// the bucket that holds it; `nil` without samples.
    func value(atQuantile quantile: Double) -> Double? {
        guard total > 0 else { return nil }
        // The rank of the sample asked for, 1-based: p99 of 100 samples is the 99th.
        let rank = max(1, Int((quantile * Double(total)).rounded(.up)))
        var seen = 0
        for (index, count) in counts.enumerated() {
            seen += Int(count)
            if seen >= rank {
                let range = Self.range(of: index)
                return (range.lowerBound + range.upperBound) / 2
            }
        }
        return Self.range(of: counts.count - 1).upperBound
    }

    /// The bucket of a latency: exact below 4 µs, then four per octave.
    static func bucket(of microseconds: UInt64) -> Int {
        if microseconds < 4 { return Int(microseconds) }
        let octave = 63 - microseconds.leadingZeroBitCount
        let index = (octave - 1) * 4 + Int((microseconds >> UInt64(octave - 2)) & 3)
        return min(index, bucketCount - 1)
    }

    /// The microseconds a bucket covers, lower bound included.
    static func range(of bucket: Int) -> Range<Double> {
        if bucket < 4 { return Double(bucket)..<Double(bucket + 1) }
        let octave = bucket / 4 + 1
        let width = Double(UInt64(1) << UInt64(octave - 2))
        let lower = Double(4 + bucket % 4) * width
        return lower..<(lower + width)
    }
}
