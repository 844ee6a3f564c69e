/// The exit status of a run, for scripts and CI jobs that do not read the report:
///
/// - 130 (SIGINT) or 143 (SIGTERM) when a signal stopped the run, as a shell reports a program it interrupted,
///   whatever the thresholds said (they are still evaluated and reported);
/// - 4 when `--abort-on-fail` stopped it, or a threshold failed (other than `--max-unanswered` alone);
/// - 3 when `--max-unanswered` failed, or, without any `--max-unanswered`, when some request got no answer;
/// - 0 otherwise. (64, a usage error, is the argument parser's.)
package enum LoadExitStatus {
    package static let thresholdFailed: Int32 = 4
    package static let unanswered: Int32 = 3

    package static func code(
        stoppedBy reason: RunControl.Reason?, thresholds: [ThresholdOutcome], unanswered: Int,
        limitsUnanswered: Bool
    ) -> Int32 {
        switch reason {
        case .signal(let number): return 128 + number
        case .thresholdFailed: return thresholdFailed
        case nil: break
        }
        let failed = thresholds.filter { !$0.passed }
        if failed.contains(where: { $0.name != LoadThresholds.Quantity.unanswered.rawValue }) { return thresholdFailed }
        if !failed.isEmpty { return Self.unanswered }
        return !limitsUnanswered && unanswered > 0 ? Self.unanswered : 0
    }

    /// `SIGINT`, `SIGTERM`, or `signal 1`.
    package static func signalName(_ number: Int32) -> String {
        switch number {
        case 2: "SIGINT"
        case 15: "SIGTERM"
        default: "signal \(number)"
        }
    }
}
