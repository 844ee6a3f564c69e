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

/// Thresholds of one method, of p95 and p99.9, of unanswered requests, and when `--abort-on-fail` may stop a run.
@Suite struct MethodThresholdsTests {
    /// `workout.day` in two sizes, slow; `system.ping` fast, with some errors and unanswered requests.
    func run() -> LoadSnapshot {
        let results = LoadResults(labels: ["system.ping", "workout.day@30d", "workout.day@1y"])
        for index in 0..<100 {
            results.sent(0)
            results.answered(0, microseconds: UInt64(1000 + index), errorCode: index < 5 ? "overloaded" : nil)
        }
        for _ in 0..<3 {
            results.sent(0)
            results.unanswered(0)
        }
        for index in 0..<50 {
            results.sent(1)
            results.answered(1, microseconds: 40_000, errorCode: nil)
            results.sent(2)
            results.answered(2, microseconds: index < 45 ? 60_000 : 90_000, errorCode: nil)
        }
        return results.snapshot(elapsed: .seconds(1))
    }

    @Test func aMethodCoversEverySizeOfItOrOneRow() {
        let thresholds = LoadThresholds([
            .init(.p99, latency: .milliseconds(100)), .init(.p99, method: "workout.day", latency: .milliseconds(80)),
            .init(.p99, method: "workout.day@30d", latency: .milliseconds(80)),
            .init(.errorRate, method: "system.ping", value: 0.05), .init(.errorRate, method: "workout.day", value: 0),
        ])
        let outcomes = thresholds.evaluate(run())
        #expect(
            outcomes.map(\.option) == [
                "--max-error-rate system.ping", "--max-error-rate workout.day", "--max-p99", "--max-p99 workout.day",
                "--max-p99 workout.day@30d",
            ])
        #expect(outcomes.map(\.passed) == [false, true, true, false, true], "\(outcomes.map(\.text))")
        // system.ping: 5 failed and 3 unanswered of 103.
        #expect(abs((outcomes[0].measured ?? 0) - 8.0 / 103) < 1e-9)
        // The two sizes of workout.day together: 100 successes, 5 of them at 90 ms, so p99 is about 90 ms.
        #expect((outcomes[3].measured ?? 0) > 89_000 && outcomes[3].method == "workout.day")
        #expect(thresholds.unknownMethods(among: ["system.ping", "workout.day@30d", "workout.day@1y"]) == [])
        #expect(
            thresholds.unknownMethods(among: ["system.ping", "workout.day@1y"]) == ["workout.day@30d"],
            "a row the run does not have")
        #expect(
            LoadThresholds([.init(.p95, method: "workout", latency: .seconds(1))]).unknownMethods(
                among: ["workout.day@1y"]) == ["workout"], "a method, not a prefix")
    }

    @Test func p95AndP999AndUnanswered() {
        let snapshot = run()
        let all = snapshot.all
        let outcomes = LoadThresholds([
            .init(.unanswered, value: 3, isFraction: false), .init(.p999, latency: .milliseconds(80)),
            .init(.p95, latency: .milliseconds(70)), .init(.unanswered, value: 0.005, isFraction: true),
            .init(.unanswered, method: "workout.day", value: 0, isFraction: false),
        ]).evaluate(snapshot)
        #expect(outcomes.map(\.name) == ["max-p95", "max-p999", "max-unanswered", "max-unanswered", "max-unanswered"])
        #expect(outcomes[0].measured == Double(all.latency?.p95 ?? 0) && outcomes[0].passed)
        #expect(outcomes[1].measured == Double(all.latency?.p999 ?? 0) && !outcomes[1].passed)
        #expect(outcomes[1].text.hasPrefix("p99.9 of successes"))
        #expect(outcomes[2].passed && outcomes[2].unit == "requests" && outcomes[2].text == "unanswered 3 ≤ 3")
        #expect(!outcomes[3].passed && outcomes[3].unit == "fraction", "3 of 303 is more than 0.5%")
        #expect(outcomes[4].passed && outcomes[4].measured == 0)
        #expect(LoadThresholds([.init(.unanswered, value: 0, isFraction: false)]).limitsUnanswered)
        #expect(!LoadThresholds(maxErrorRate: 0.1).limitsUnanswered)
    }

    @Test(arguments: [("0", 0.0, false), ("10", 10, false), ("1%", 0.01, true), (" 0% ", 0, true)])
    func unansweredLimits(text: String, value: Double, isFraction: Bool) throws {
        let parsed = try #require(LoadThresholds.unanswered(parsing: text))
        #expect(abs(parsed.value - value) < 1e-12 && parsed.isFraction == isFraction)
    }

    @Test(arguments: ["", "-1", "0.5", "abc", "101%", "1%%"])
    func badUnansweredLimits(text: String) {
        #expect(LoadThresholds.unanswered(parsing: text) == nil, "\(text)")
    }

    @Test func aLimitMayNameAMethod() {
        #expect(LoadThresholds.scope(of: "80ms") == (nil, "80ms"))
        #expect(LoadThresholds.scope(of: "workout.day=80ms") == ("workout.day", "80ms"))
        #expect(LoadThresholds.scope(of: "workout.day@1y=1%") == ("workout.day@1y", "1%"))
        #expect(LoadThresholds.scope(of: "=1%") == ("", "1%"))
    }

    @Test func aRunWithAKnownCountAbortsOnlyWhenTheLimitCanNoLongerBeMet() {
        let snapshot = run()  // 303 requests: 5 failed, 3 unanswered, 5 successes at 90 ms
        func verdict(_ limit: LoadThresholds.Limit, planned: Int?) -> String? {
            LoadThresholds([limit]).failedForGood(in: snapshot, plannedRequests: planned)
        }
        // A count is for good whatever the plan.
        #expect(verdict(.init(.unanswered, value: 2, isFraction: false), planned: nil)?.contains("3 requests") == true)
        #expect(verdict(.init(.unanswered, value: 3, isFraction: false), planned: nil) == nil)
        // 8 failed or unanswered: more than 1% of 500 planned (5), not of 1000 (10).
        #expect(verdict(.init(.errorRate, value: 0.01), planned: 500)?.hasPrefix("--max-error-rate") == true)
        #expect(verdict(.init(.errorRate, value: 0.01), planned: 1000) == nil)
        #expect(verdict(.init(.errorRate, value: 0.01), planned: nil) == nil, "a rate needs the plan")
        #expect(verdict(.init(.unanswered, value: 0.005, isFraction: true), planned: 500) != nil)
        #expect(verdict(.init(.unanswered, value: 0.01, isFraction: true), planned: 500) == nil)
        // 5 successes slower than 80 ms: more than 1% of 400 planned (4) but not of 600 (6), for the p99.
        let p99 = LoadThresholds.Limit(.p99, latency: .milliseconds(80))
        #expect(verdict(p99, planned: 400)?.contains("slower than 80.000 ms") == true)
        #expect(verdict(p99, planned: 600) == nil)
        #expect(verdict(.init(.p99, method: "system.ping", latency: .milliseconds(80)), planned: 1) == nil)
        // Over the run so far: the first failing threshold.
        let soFar = LoadThresholds([.init(.p95, latency: .seconds(1)), p99]).failingSoFar(in: snapshot)
        #expect(soFar?.name == "max-p99")
        #expect(LoadThresholds([.init(.p95, latency: .seconds(1))]).failingSoFar(in: snapshot) == nil)
    }
}
