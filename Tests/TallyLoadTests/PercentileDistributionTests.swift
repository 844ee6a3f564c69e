import TallyLoad
import Testing

@Suite struct PercentileDistributionTests {
    @Test func hgrmTextInMillisecondsThatAPlotterReads() throws {
        let results = LoadResults(labels: ["x"])
        for microseconds in 1...1000 {
            results.sent(0)
            results.answered(0, microseconds: UInt64(microseconds) * 10, errorCode: nil)
        }
        // Errors are not part of the successes' distribution.
        results.sent(0)
        results.answered(0, microseconds: 50_000_000, errorCode: "overloaded")
        let text = try #require(PercentileDistribution.hgrm(results.snapshot(elapsed: .seconds(1)).successLatencies))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first?.split(separator: " ") == ["Value", "Percentile", "TotalCount", "1/(1-Percentile)"])
        let rows = lines.dropFirst().filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ") }
        let values = rows.compactMap { $0.first.flatMap { Double($0) } }
        let percentiles = rows.compactMap { $0.count > 1 ? Double($0[1]) : nil }
        #expect(values.count > 20 && values == values.sorted() && percentiles == percentiles.sorted())
        #expect(abs(values.first! - 0.010) < 0.001 && abs(values.last! - 10.0) < 0.02, "milliseconds: \(values)")
        #expect(percentiles.last == 1.0)
        #expect(
            lines.contains { $0.hasPrefix("#[Mean") }
                && lines.contains { $0.contains("Total count") && $0.hasSuffix("1000]") })
    }

    @Test func nothingToPlotIsNil() {
        #expect(
            PercentileDistribution.hgrm(LoadResults(labels: ["x"]).snapshot(elapsed: .seconds(1)).successLatencies)
                == nil)
    }
}
