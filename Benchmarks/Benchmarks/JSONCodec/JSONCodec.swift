import Benchmark
import BenchmarkFixtures
import Foundation
import TallyJSONCoding
import TallyProtocol

/// The codec alone, on `streak.summary` params of one and ten years: Foundation's `JSONDecoder`/`JSONEncoder`
/// (configured as Tally configured them) next to `TallyJSONDecoder`/`TallyJSONEncoder`, in the same run, so the
/// ratio between each pair is the figure to track.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )

    for size in [HistorySizeLabel.year, .decade] {
        let params = Fixtures.streakParams(size.historySize)
        let body = Fixtures.paramsBody(params)
        let data = Data(body)

        Benchmark("decode streak params \(size) Foundation") { benchmark in
            let decoder = JSONDecoder()
            for _ in benchmark.scaledIterations {
                blackHole(try! decoder.decode(StreakSummary.Params.self, from: data))
            }
        }
        Benchmark("decode streak params \(size) Tally") { benchmark in
            let decoder = TallyJSONDecoder()
            for _ in benchmark.scaledIterations {
                blackHole(try! decoder.decode(StreakSummary.Params.self, from: body))
            }
        }
        Benchmark("encode streak params \(size) Foundation") { benchmark in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            for _ in benchmark.scaledIterations {
                blackHole(try! encoder.encode(params))
            }
        }
        Benchmark("encode streak params \(size) Tally") { benchmark in
            let encoder = TallyJSONEncoder()
            for _ in benchmark.scaledIterations {
                blackHole(try! encoder.encodeToBytes(params))
            }
        }
    }
}
