import BenchmarkFixtures
import Foundation
import Logging
import Majordomo
import TallyJSONCoding
import TallyLoad
import TallyProtocol
import TallyWorker
import ZeroMQ

// A profiling driver: repeats one codec step so that `perf record` or `valgrind --tool=callgrind` see nothing
// else. Usage: codec-loop [decode|encode|foundation-decode|workout-day-decode|workout-day-parse|
// workout-day-compute|workout-day-dispatch|workout-calendar-decode|
// workout-calendar-dispatch|streak-dispatch|history-month-dispatch|dashboard-daily-dispatch] [iterations]. The
// first three work on the 10-year streak params;
// the workout steps on two years of workouts (~700 KB); `workout-day-parse` only parses them (a type that reads
// nothing), so that its share of `workout-day-decode` is a subtraction; `workout-day-compute` is the method's
// validation and computation on decoded params (the dispatcher's step between decoding and encoding);
// `workout-day-dispatch` is the worker's whole step, request body to response body, as the Methods benchmark.
// The last three are whole steps whose responses are lists of day or hour objects (the 30-day heatmap, a month
// grid and its rows on three years of records, today's hours): where the response encoder's work shows.
// `result FILE SERVICE` encodes the result of a dumped request again and again (see below).
// `ping-handler` and `traced-ping-handler` are the worker's handler (what runs per request on its I/O thread:
// dispatch, metrics, log line, spans) on the smallest request, without and with a W3C trace: the per-request
// cost of tracing when no trace is present is their first count against the same step before tracing existed.

let arguments = CommandLine.arguments
let step = arguments.count > 1 ? arguments[1] : "decode"
// `codec-loop dump DIRECTORY`: the benchmark's params bodies as files, for other decoders to read the same bytes.
if step == "dump", arguments.count > 2 {
    for (name, bytes) in Fixtures.shapes {
        FileManager.default.createFile(atPath: "\(arguments[2])/\(name).json", contents: Data(bytes))
    }
    for (name, service, bytes) in Fixtures.requests {
        FileManager.default.createFile(atPath: "\(arguments[2])/\(name).\(service).request", contents: Data(bytes))
    }
    exit(0)
}
// `codec-loop shape NAME [ITERATIONS]`: typed decode of one of `Fixtures.shapes`, with MB/s; `direct` the same
// with `JSONDirectDecodable`.
if step == "shape" || step == "direct", arguments.count > 2 {
    let name = arguments[2]
    let count = arguments.count > 3 ? Int(arguments[3]) ?? 100 : 100
    guard let bytes = Fixtures.shapes.first(where: { $0.name == name })?.bytes else { exit(64) }
    func decoder<Params: Decodable & JSONDirectDecodable>(
        _ type: Params.Type, _ count: @escaping (Params) -> Int
    ) -> ([UInt8]) throws -> Int {
        step == "direct"
            ? { count(JSONCursor.read($0) { Params(direct: &$0) }!) }
            : { count(try TallyJSONDecoder().decode(Params.self, from: $0)) }
    }
    let decode: ([UInt8]) throws -> Int =
        switch name {
        case "dashboard-daily-3y": decoder(HistoryDashboard.Params.self) { $0.samples.count }
        case "workout-day-2y": decoder(WorkoutDay.Params.self) { $0.workouts.count }
        default: decoder(StreakSummary.Params.self) { $0.records.count }
        }
    var sum = 0
    for _ in 0..<10 { sum &+= try decode(bytes) }
    var times: [Duration] = []
    for _ in 0..<count {
        let clock = ContinuousClock()
        let start = clock.now
        sum &+= try decode(bytes)
        times.append(clock.now - start)
    }
    let median = times.sorted()[times.count / 2]
    let seconds = Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
    print("\(name): \(bytes.count) B, median \(median), \(Int(Double(bytes.count) / seconds / 1e6)) MB/s (\(sum))")
    exit(0)
}
let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100
let params = Fixtures.streakParams(.decade)
let body = Fixtures.paramsBody(params)
let dayBody = step.hasPrefix("workout-day") ? Fixtures.paramsBody(Fixtures.workoutDayParams()) : []
let dayParams = step == "workout-day-compute" ? Fixtures.workoutDayParams() : nil
let dayRequest =
    step == "workout-day-dispatch"
    ? Fixtures.requestBody(method: WorkoutDay.name, params: Fixtures.workoutDayParams()) : []
let calendarRequest =
    step == "workout-calendar-dispatch"
    ? Fixtures.requestBody(method: WorkoutCalendar.name, params: Fixtures.workoutCalendarParams()) : []
let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "loop/1", version: "loop"))
    .dispatcher(limits: RequestLimits())
let logger = Logger(label: "codec-loop")
// `codec-loop respond FILE SERVICE [ITERATIONS]`: the dispatcher's answer to the request body in FILE, median of
// ITERATIONS: the same bytes for builds of different commits (`dump` writes them).
if step == "respond", arguments.count > 3 {
    let body = Array(FileManager.default.contents(atPath: arguments[2])!)
    let count = arguments.count > 4 ? Int(arguments[4]) ?? 300 : 300
    var sum = 0
    for _ in 0..<10 { sum &+= dispatcher.respond(to: body, service: arguments[3], logger: logger).bytes.count }
    var times: [Duration] = []
    for _ in 0..<count {
        let clock = ContinuousClock()
        let start = clock.now
        sum &+= dispatcher.respond(to: body, service: arguments[3], logger: logger).bytes.count
        times.append(clock.now - start)
    }
    print("\(arguments[2].split(separator: "/").last!): median \(times.sorted()[count / 2]) (\(sum))")
    exit(0)
}
// `codec-loop result FILE SERVICE [ITERATIONS] [OUT]`: the result of the request in FILE (a `dump` file) encoded again
// and again as the worker encodes it, median and MB/s; OUT, when given, receives the response body (for other
// encoders to write the same document).
if step == "result", arguments.count > 3 {
    let request = Array(FileManager.default.contents(atPath: arguments[2])!)
    let count = arguments.count > 4 ? Int(arguments[4]) ?? 300 : 300
    let reply = dispatcher.respond(to: request, service: arguments[3], logger: logger).bytes
    if arguments.count > 5 { FileManager.default.createFile(atPath: arguments[5], contents: Data(reply)) }
    func encoder<Result: Codable & Sendable>(_ type: Result.Type) throws -> () throws -> Int {
        let envelope = try TallyJSONDecoder().decode(ResponseEnvelope<Result>.self, from: reply)
        let encoder = TallyJSON.resultEncoder()
        return { try encoder.encodeToBytes(envelope).count }
    }
    let method = try TallyJSONDecoder().decode(RequestHead.self, from: request).method
    let encode: () throws -> Int =
        switch method {
        case StreakSummary.name: try encoder(StreakSummary.Result.self)
        case HistoryMonth.name: try encoder(HistoryMonth.Result.self)
        case HistoryDashboard.name: try encoder(HistoryDashboard.Result.self)
        case WorkoutCalendar.name: try encoder(WorkoutCalendar.Result.self)
        default: try encoder(WorkoutDay.Result.self)
        }
    var size = 0
    for _ in 0..<10 { size = try encode() }
    var times: [Duration] = []
    for _ in 0..<count {
        let clock = ContinuousClock()
        let start = clock.now
        size = try encode()
        times.append(clock.now - start)
    }
    let median = times.sorted()[count / 2]
    let seconds = Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
    print("\(method): \(size) B, median \(median), \(Int(Double(size) / seconds / 1e6)) MB/s")
    exit(0)
}
let resultRequest: (method: String, service: String, body: [UInt8])? =
    switch step {
    case "streak-dispatch":
        (StreakSummary.name, "tally.streak", Fixtures.requestBody(method: StreakSummary.name, params: params))
    case "history-month-dispatch":
        (
            HistoryMonth.name, "tally.history",
            Fixtures.requestBody(method: HistoryMonth.name, params: Fixtures.historyMonthParams())
        )
    case "dashboard-daily-dispatch":
        (
            HistoryDashboard.name, "tally.history",
            Fixtures.requestBody(method: HistoryDashboard.name, params: Fixtures.historyDashboardParams(.daily))
        )
    default: nil
    }
let pingHandler = WorkerService.handler(dispatcher: dispatcher, logger: logger)
let pingRequest = WorkerRequest(
    service: "tally.history",
    body: [
        Frame(
            step == "traced-ping-handler"
                ? #"{"version":1,"id":"p-1","method":"system.ping","trace":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},"params":{}}"#
                : #"{"version":1,"id":"p-1","method":"system.ping","params":{}}"#)
    ], connection: 0)
let calendarBody =
    step == "workout-calendar-decode" ? Fixtures.paramsBody(Fixtures.workoutCalendarParams()) : []
let clock = ContinuousClock()
let start = clock.now
var checksum = 0
for _ in 0..<iterations {
    switch step {
    case "encode":
        checksum &+= try TallyJSONEncoder().encodeToBytes(params).count
    case "foundation-decode":
        checksum &+= try JSONDecoder().decode(StreakSummary.Params.self, from: Data(body)).records.count
    case "workout-day-decode":
        checksum &+= try TallyJSONDecoder().decode(WorkoutDay.Params.self, from: dayBody).workouts.count
    case "workout-day-compute":
        checksum &+= try WorkoutDay.result(for: dayParams!, limits: RequestLimits()).workouts.count
    case "workout-day-dispatch":
        checksum &+= dispatcher.respond(to: dayRequest, service: "tally.workout", logger: logger).bytes.count
    case "workout-calendar-dispatch":
        checksum &+= dispatcher.respond(to: calendarRequest, service: "tally.workout", logger: logger).bytes.count
    case "streak-dispatch", "history-month-dispatch", "dashboard-daily-dispatch":
        checksum &+=
            dispatcher.respond(to: resultRequest!.body, service: resultRequest!.service, logger: logger)
            .bytes.count
    case "ping-handler", "traced-ping-handler":
        checksum &+= pingHandler(pingRequest)[0].count
    case "workout-day-parse":
        checksum &+= try TallyJSONDecoder().decode(ParsedOnly.self, from: dayBody).count
    case "workout-calendar-decode":
        checksum &+= try TallyJSONDecoder().decode(WorkoutCalendar.Params.self, from: calendarBody).workouts.count
    default:
        checksum &+= try TallyJSONDecoder().decode(StreakSummary.Params.self, from: body).records.count
    }
}
let elapsed = clock.now - start
print("\(step): \(iterations) iterations, \(elapsed / max(iterations, 1)) each (checksum \(checksum))")

/// Reads nothing: decoding it is parsing the document and no more.
struct ParsedOnly: Decodable {
    let count = 1

    init(from decoder: any Decoder) throws {}
}
