import Benchmark
import BenchmarkFixtures
import Foundation
import Logging
import TallyCore
import TallyJSONCoding
import TallyProtocol
import TallyWorker

/// Whole methods in process: the worker's dispatcher answering a request body (decode → validate → compute →
/// encode, exactly what a worker does per request, without the transport), plus the `streak.summary` split into
/// its steps with both codecs, so that each step's share is visible.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 2_000
    )

    let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "bench/1", version: "bench"))
        .dispatcher(limits: RequestLimits())
    let logger = Logger(label: "bench")
    let limits = RequestLimits()

    let ping = Array(#"{"version":1,"id":"bench-1","method":"system.ping","params":{}}"#.utf8)
    Benchmark("system.ping dispatch") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(dispatcher.respond(to: ping, service: "tally.streak", logger: logger))
        }
    }

    for size in [HistorySizeLabel.year, .decade] {
        let params = Fixtures.streakParams(size.historySize)
        let request = Fixtures.requestBody(method: StreakSummary.name, params: params)
        let paramsBody = Fixtures.paramsBody(params)
        let paramsData = Data(paramsBody)
        let result = try! StreakSummary.result(for: params, limits: limits)
        let envelope = ResponseEnvelope(id: "bench-1", outcome: .success(result))

        Benchmark("streak.summary \(size) dispatch") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(dispatcher.respond(to: request, service: "tally.streak", logger: logger))
            }
        }
        Benchmark("streak.summary \(size) step decode Foundation") { benchmark in
            let decoder = JSONDecoder()
            for _ in benchmark.scaledIterations {
                blackHole(try! decoder.decode(StreakSummary.Params.self, from: paramsData))
            }
        }
        Benchmark("streak.summary \(size) step decode Tally") { benchmark in
            let decoder = TallyJSONDecoder()
            for _ in benchmark.scaledIterations {
                blackHole(try! decoder.decode(StreakSummary.Params.self, from: paramsBody))
            }
        }
        Benchmark("streak.summary \(size) step compute") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try! StreakSummary.result(for: params, limits: limits))
            }
        }
        Benchmark("streak.summary \(size) step encode Foundation") { benchmark in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            for _ in benchmark.scaledIterations {
                blackHole(try! encoder.encode(envelope))
            }
        }
        Benchmark("streak.summary \(size) step encode Tally") { benchmark in
            let encoder = TallyJSON.resultEncoder()
            for _ in benchmark.scaledIterations {
                blackHole(try! encoder.encodeToBytes(envelope))
            }
        }
    }

    let dayParams = Fixtures.workoutDayParams()
    let day = Fixtures.requestBody(method: WorkoutDay.name, params: dayParams)
    Benchmark("workout.day 2y dispatch") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(dispatcher.respond(to: day, service: "tally.workout", logger: logger))
        }
    }
    let dayParamsBody = Fixtures.paramsBody(dayParams)
    let dayParamsData = Data(dayParamsBody)
    Benchmark("workout.day 2y step decode Foundation") { benchmark in
        let decoder = JSONDecoder()
        for _ in benchmark.scaledIterations {
            blackHole(try! decoder.decode(WorkoutDay.Params.self, from: dayParamsData))
        }
    }
    Benchmark("workout.day 2y step decode Tally") { benchmark in
        let decoder = TallyJSONDecoder()
        for _ in benchmark.scaledIterations {
            blackHole(try! decoder.decode(WorkoutDay.Params.self, from: dayParamsBody))
        }
    }
    let month = Fixtures.requestBody(method: WorkoutCalendar.name, params: Fixtures.workoutCalendarParams())
    Benchmark("workout.calendar 2y dispatch") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(dispatcher.respond(to: month, service: "tally.workout", logger: logger))
        }
    }

    // History, on three years of daily records (the issue's size): every method through the dispatcher, and
    // `history.month` split into its steps.
    let historyRequests: [(String, [UInt8])] = [
        (
            "history.months 3y dispatch",
            Fixtures.requestBody(method: HistoryMonths.name, params: Fixtures.historyMonthsParams())
        ),
        (
            "history.month 3y dispatch",
            Fixtures.requestBody(method: HistoryMonth.name, params: Fixtures.historyMonthParams())
        ),
        (
            "history.dashboard daily 3y dispatch",
            Fixtures.requestBody(method: HistoryDashboard.name, params: Fixtures.historyDashboardParams(.daily))
        ),
        (
            "history.dashboard monthly 3y dispatch",
            Fixtures.requestBody(method: HistoryDashboard.name, params: Fixtures.historyDashboardParams(.monthly))
        ),
    ]
    for (name, body) in historyRequests {
        Benchmark(name) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(dispatcher.respond(to: body, service: "tally.history", logger: logger))
            }
        }
    }
    let monthParams = Fixtures.historyMonthParams()
    let monthParamsBody = Fixtures.paramsBody(monthParams)
    let monthEnvelope = ResponseEnvelope(
        id: "bench-1", outcome: .success(try! HistoryMonth.result(for: monthParams, limits: limits)))
    Benchmark("history.month 3y step decode Tally") { benchmark in
        let decoder = TallyJSONDecoder()
        for _ in benchmark.scaledIterations {
            blackHole(try! decoder.decode(HistoryMonth.Params.self, from: monthParamsBody))
        }
    }
    Benchmark("history.month 3y step compute") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! HistoryMonth.result(for: monthParams, limits: limits))
        }
    }
    Benchmark("history.month 3y step encode Tally") { benchmark in
        let encoder = TallyJSON.resultEncoder()
        for _ in benchmark.scaledIterations {
            blackHole(try! encoder.encodeToBytes(monthEnvelope))
        }
    }
}
