import Foundation
import Histogram

/// When `--abort-on-fail` stops a run: as soon as a threshold can no longer be met.
///
/// Some failures are for good whatever comes next: more unanswered requests than a `--max-unanswered` count
/// allows; and, when the run's request count is known beforehand (`--requests`), more failed (or unanswered, or
/// slow) requests than the limit allows over all the planned requests, since later requests can only add to
/// them. A run without a known count (one that runs for a duration) has no such certainty for a rate or a
/// percentile: it takes a threshold failing over the run so far, after a warm-up, as failed (as k6's
/// `abortOnFail` does).
extension LoadThresholds {
    /// The first threshold that has failed for good in `snapshot`, said for people; `nil` when none has.
    /// - Parameter plannedRequests: requests the run starts at most, when known.
    package func failedForGood(in snapshot: LoadSnapshot, plannedRequests: Int?) -> String? {
        for limit in ordered {
            guard let row = snapshot.row(covering: limit.method) else { continue }
            let option = "--\(limit.quantity.rawValue)" + (limit.method.map { " \($0)" } ?? "")
            if limit.quantity == .unanswered, !limit.isFraction, Double(row.unanswered) > limit.value {
                return "\(option): \(row.unanswered) requests already unanswered > \(Int(limit.value))"
            }
            guard let planned = plannedRequests, planned > 0 else { continue }
            let allowed = limit.value * Double(planned)
            switch limit.quantity {
            case .errorRate where Double(row.failed + row.unanswered) > allowed:
                return "\(option): \(row.failed + row.unanswered) of \(planned) planned requests already failed or "
                    + "unanswered: error rate at least \(ReportFormat.percent(Double(row.failed + row.unanswered) / Double(planned))) "
                    + "> \(ReportFormat.percent(limit.value))"
            case .unanswered where limit.isFraction && Double(row.unanswered) > allowed:
                return "\(option): \(row.unanswered) of \(planned) planned requests already unanswered > "
                    + ReportFormat.percent(limit.value)
            case .p95, .p99, .p999:
                let percentile = limit.quantity.percentile ?? 99
                let slow = Self.count(of: row.successes, above: UInt64(limit.value))
                // Later successes can only dilute the slow ones down to `slow` out of `planned`.
                if Double(slow) > (1 - percentile / 100) * Double(planned) {
                    return "\(option): \(slow) of \(planned) planned requests already succeeded slower than "
                        + "\(ReportFormat.milliseconds(limit.value)) ms"
                }
            default: continue
            }
        }
        return nil
    }

    /// The first threshold failing over the run so far (what a run without a known count aborts on).
    package func failingSoFar(in snapshot: LoadSnapshot) -> ThresholdOutcome? {
        evaluate(snapshot).first { !$0.passed }
    }

    /// Values recorded in `histogram` that its percentiles report as above `limit`.
    static func count(of histogram: Histogram<UInt64>, above limit: UInt64) -> UInt64 {
        guard histogram.totalCount > 0, histogram.maxRecorded > limit,
            limit < LoadResults.highestTrackableMicroseconds
        else { return 0 }
        return histogram.count(within: (limit + 1)...LoadResults.highestTrackableMicroseconds)
    }
}
