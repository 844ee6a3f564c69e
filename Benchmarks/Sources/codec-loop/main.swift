import BenchmarkFixtures
import Foundation
import TallyJSONCoding
import TallyLoad
import TallyProtocol

// A profiling driver: repeats one codec step on the 10-year streak params so that `perf record` or
// `valgrind --tool=callgrind` see nothing else. Usage: codec-loop [decode|encode|foundation-decode] [iterations]

let arguments = CommandLine.arguments
let step = arguments.count > 1 ? arguments[1] : "decode"
let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100
let params = Fixtures.streakParams(.decade)
let body = Fixtures.paramsBody(params)
let clock = ContinuousClock()
let start = clock.now
var checksum = 0
for _ in 0..<iterations {
    switch step {
    case "encode":
        checksum &+= try TallyJSONEncoder().encodeToBytes(params).count
    case "foundation-decode":
        checksum &+= try JSONDecoder().decode(StreakSummary.Params.self, from: Data(body)).records.count
    default:
        checksum &+= try TallyJSONDecoder().decode(StreakSummary.Params.self, from: body).records.count
    }
}
let elapsed = clock.now - start
print("\(step): \(iterations) iterations, \(elapsed / iterations) each (checksum \(checksum))")
