import TallyLoad
import Testing

/// The progress line for a log: every figure of the run so far, in the report's units.
@Suite struct ProgressLineTests {
    @Test func aPlainLineHasEveryFigure() {
        let results = LoadResults(labels: ["system.ping"])
        for index in 0..<100 {
            results.sent(0)
            results.answered(0, microseconds: 2_000, errorCode: index < 2 ? "overloaded" : nil)
        }
        results.sent(0)
        results.unanswered(0)
        let line = ProgressLine.plain(results.total(elapsed: .seconds(2)), target: "300/s")
        #expect(
            line == "tally-load: 2.0 s, 49.0 successes/s, 101 requests, 2 errors, 1 no answer, "
                + "error rate 2.97%, p99 2.000 ms, target 300/s", "\(line)")
        #expect(!line.contains("\r") && !line.contains("\u{1B}"), "nothing for a terminal only")
        let nothing = ProgressLine.plain(LoadResults(labels: ["x"]).total(elapsed: .seconds(1)))
        #expect(nothing.hasSuffix("error rate n/a, p99 n/a"), "\(nothing)")
    }
}
