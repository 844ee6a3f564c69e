import TallyLoad
import Testing

@Suite struct LoadThresholdsTests {
    @Test(arguments: [
        ("1%", 0.01), ("0.5%", 0.005), ("100%", 1.0), ("0%", 0.0), ("0", 0.0), ("0.01", 0.01), ("1", 1.0),
        (" 2% ", 0.02),
    ])
    func errorRates(text: String, fraction: Double) throws {
        let parsed = try #require(LoadThresholds.errorRate(parsing: text))
        #expect(abs(parsed - fraction) < 1e-12)
    }

    @Test(arguments: ["", "%", "150%", "-1%", "2", "-0.1", "abc", "nan", "inf", "1%%", "1 %x"])
    func badErrorRates(text: String) {
        #expect(LoadThresholds.errorRate(parsing: text) == nil, "\(text)")
    }

    func summary(successes: Int, errors: Int, microseconds: UInt64) -> LoadSummary {
        let results = LoadResults(labels: ["x"])
        for _ in 0..<successes {
            results.sent(0)
            results.answered(0, microseconds: microseconds, errorCode: nil)
        }
        for _ in 0..<errors {
            results.sent(0)
            results.answered(0, microseconds: 10, errorCode: "overloaded")
        }
        return results.total(elapsed: .seconds(1))
    }

    @Test func limitsAreInclusiveAndEachOutcomeSaysWhich() {
        let thresholds = LoadThresholds(maxErrorRate: 0.1, maxP99: .milliseconds(5))
        let atTheLimits = thresholds.evaluate(summary(successes: 90, errors: 10, microseconds: 4_000))
        #expect(atTheLimits.map(\.name) == ["max-error-rate", "max-p99"])
        #expect(atTheLimits.allSatisfy { $0.passed }, "\(atTheLimits)")
        let beyond = thresholds.evaluate(summary(successes: 80, errors: 20, microseconds: 6_000))
        #expect(beyond.map(\.passed) == [false, false])
        #expect(beyond[0].measured == 0.2 && beyond[0].limit == 0.1 && beyond[0].unit == "fraction")
        #expect(beyond[1].unit == "us" && beyond[1].limit == 5_000 && (beyond[1].measured ?? 0) > 5_000)
        #expect(LoadThresholds().evaluate(summary(successes: 1, errors: 0, microseconds: 1)).isEmpty)
    }
}
