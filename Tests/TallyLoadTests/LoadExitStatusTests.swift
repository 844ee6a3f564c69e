import TallyLoad
import Testing

/// Which exit status a run ends with: signals first, then thresholds, then unanswered requests.
@Suite struct LoadExitStatusTests {
    func outcome(_ name: String, passed: Bool) -> ThresholdOutcome {
        ThresholdOutcome(name: name, unit: "x", limit: 1, measured: 2, passed: passed, text: "")
    }

    @Test func statuses() {
        let failedP99 = outcome("max-p99", passed: false)
        let failedUnanswered = outcome("max-unanswered", passed: false)
        let passedUnanswered = outcome("max-unanswered", passed: true)
        func code(
            _ outcomes: [ThresholdOutcome] = [], stop reason: RunControl.Reason? = nil, unanswered: Int = 0,
            limits: Bool = false
        ) -> Int32 {
            LoadExitStatus.code(
                stoppedBy: reason, thresholds: outcomes, unanswered: unanswered, limitsUnanswered: limits)
        }
        #expect(code() == 0)
        #expect(code(unanswered: 1) == 3, "today's default: any unanswered request")
        #expect(code([passedUnanswered], unanswered: 5, limits: true) == 0, "within --max-unanswered")
        #expect(code([failedUnanswered], unanswered: 5, limits: true) == 3)
        #expect(code([failedP99, failedUnanswered], unanswered: 5, limits: true) == 4)
        #expect(code([failedP99], unanswered: 5) == 4)
        #expect(
            code([failedUnanswered], stop: .thresholdFailed("x"), limits: true) == 4, "an abort is a failed threshold")
        #expect(code([failedP99], stop: .signal(2), unanswered: 3) == 130)
        #expect(code(stop: .signal(15)) == 143)
        #expect(LoadExitStatus.signalName(2) == "SIGINT" && LoadExitStatus.signalName(15) == "SIGTERM")
    }

    @Test func theFirstStopCounts() {
        let control = RunControl()
        #expect(!control.isStopped && control.reason == nil)
        #expect(control.stop(.signal(2)))
        #expect(!control.stop(.thresholdFailed("later")))
        #expect(control.isStopped && control.reason == .signal(2))
    }
}
