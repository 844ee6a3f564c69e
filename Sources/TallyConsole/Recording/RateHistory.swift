import Foundation

/// Requests per second and p99 of all services together, one point per step, for the last 15 minutes: the
/// console's chart. A ring of fixed size; the step being counted is a plain counter and a histogram.
struct RateHistory: Sendable {
    /// 15 minutes of 5-second steps.
    static let capacity = 180

    struct Point: Sendable, Hashable {
        let end: Date
        let requestsPerSecond: Double
        let p99Milliseconds: Double?
    }

    private var points: [Point] = []
    private var oldest = 0
    private var answered = 0
    private var latency = LatencyHistogram()

    mutating func delivered(microseconds: UInt64) {
        answered += 1
        latency.record(microseconds: microseconds)
    }

    mutating func failed() {
        answered += 1
    }

    /// Closes the step, which lasted `duration` and ended at `end`.
    mutating func advance(duration: Duration, end: Date) {
        let point = Point(
            end: end, requestsPerSecond: Double(answered) / max(duration.seconds, 0.001),
            p99Milliseconds: latency.value(atQuantile: 0.99).map { $0 / 1000 })
        if points.count < Self.capacity {
            points.append(point)
        } else {
            points[oldest] = point
            oldest = (oldest + 1) % Self.capacity
        }
        answered = 0
        latency.reset()
    }

    /// The points, oldest first.
    var ordered: [Point] { Array(points[oldest...] + points[..<oldest]) }
}
