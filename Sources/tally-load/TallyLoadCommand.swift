import ArgumentParser
import Foundation
import TallyClient
import TallyCommandLine
import TallyCore
import TallyLoad
import TallyProtocol
import ZeroMQ

@main
struct TallyLoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally-load",
        abstract: "Drive a running Tally with a realistic request mix and report throughput, latency and errors.",
        discussion: """
            Requests come from a seeded generator (same --seed, same requests): step histories of 30 days (30d), \
            1 year (1y), 2, 3 or 10 years (2y, 3y, 10y) with goal changes, weekends, missing and zero days; workouts, \
            stretches and meditations over the same spans.

            Closed loop (--in-flight N) keeps N requests outstanding; open loop (--rate R) starts R requests per \
            second on a fixed schedule and measures each latency from its scheduled start, so stalls are not \
            hidden (no coordinated omission). The run stops after --requests or --duration, whichever first.

            --baseline first measures a raw libzmq ROUTER↔DEALER echo with the same body size and in-flight count \
            (one hop, no broker) and reports Tally as ratios of it: track the ratios, not absolute figures, on \
            shared machines.

            Examples:
              tally-load --mix system.ping --in-flight 100 --requests 100000 --baseline
              tally-load --mix "system.ping=3,streak.summary@1y=1" --rate 2000 --duration 30s --json
            """,
        version: TallyBuild.version)

    @Option(
        name: .long, help: "Broker endpoint; repeat for several. [env: TALLY_BROKERS] (default: tcp://127.0.0.1:5555)")
    var broker: [String] = []

    @Option(
        help:
            "Request mix: method[@size][=weight], comma-separated. Methods: \(RequestKind.generators.keys.sorted().joined(separator: ", ")); sizes: \(HistorySize.allCases.map(\.rawValue).joined(separator: ", "))."
    )
    var mix = "system.ping"

    @Option(help: "Closed loop: requests kept in flight. (default: 100 unless --rate)")
    var inFlight: Int?

    @Option(help: "Open loop: requests started per second.")
    var rate: Double?

    @Option(help: "Stop after this many requests.")
    var requests: Int?

    @Option(help: "Stop after this long, e.g. 30s. (default: 10s when --requests is not given)")
    var duration: DurationArgument?

    @Option(help: "Client connections (each its own socket and I/O thread).")
    var connections = 1

    @Option(help: "Time each request may take.")
    var timeout = DurationArgument(.seconds(10))

    @Option(help: "Seed of the request generator.")
    var seed: UInt64 = 42

    @Option(help: "Distinct requests generated per kind.")
    var variants = 8

    @Flag(help: "Measure a raw libzmq ROUTER↔DEALER echo first and report ratios.")
    var baseline = false

    @Flag(help: "Print the report as JSON on standard output (the progress line is off).")
    var json = false

    func validate() throws {
        if inFlight != nil && rate != nil { throw ValidationError("give --in-flight or --rate, not both") }
        if let inFlight, !(1...100_000).contains(inFlight) { throw ValidationError("--in-flight must be 1...100000") }
        if let rate, !(rate > 0 && rate <= 1_000_000) { throw ValidationError("--rate must be in (0, 1000000]") }
        if let requests, requests < 1 { throw ValidationError("--requests must be at least 1") }
        if !(1...64).contains(connections) { throw ValidationError("--connections must be 1...64") }
    }

    func run() async throws {
        let settings = try SettingSources(configPath: nil, knownKeys: [])
        let brokers = try EndpointOptions.check(
            try settings.resolve(
                broker, "broker", environmentVariable: "TALLY_BROKERS", default: ["tcp://127.0.0.1:5555"]),
            option: "broker", variable: "TALLY_BROKERS", role: .connect)
        let runDuration = duration?.duration ?? (requests == nil ? .seconds(10) : nil)
        let today = ReferenceDay(now: Date(), in: ZoneCalendar(identifier: "Europe/Berlin")!).today
        let workload: Workload
        do {
            workload = try Workload(mix: mix, seed: seed, today: today, variants: variants)
        } catch {
            throw ValidationError("\(error)")
        }
        let pacing: LoadRunner.Pacing = rate.map { .openLoop(perSecond: $0) } ?? .closedLoop(inFlight: inFlight ?? 100)
        let pacingText = rate.map { "open loop \($0)/s" } ?? "closed loop \(inFlight ?? 100) in flight"

        var baselineSummary: LoadSummary?
        if baseline {
            let echoInFlight = inFlight ?? 100
            progress("raw echo baseline: \(workload.averageBodySize)-byte bodies, \(echoInFlight) in flight…")
            baselineSummary = try RawEchoBaseline(
                bodySize: workload.averageBodySize, inFlight: echoInFlight, requests: requests, duration: runDuration
            ).run()
        }

        var clients: [TallyClient] = []
        for _ in 0..<connections {
            var configuration = TallyClientConfiguration(brokers: brokers)
            configuration.retries = 0
            configuration.timeout = timeout.duration
            let client = try TallyClient(configuration: configuration)
            try client.start()
            clients.append(client)
        }
        let results = LoadResults()
        let runner = LoadRunner(
            workload: workload, pacing: pacing, requests: requests, duration: runDuration, timeout: timeout.duration)
        let clock = ContinuousClock()
        let start = clock.now
        let ticker = showProgress ? Task { await tick(results: results, start: start, clock: clock) } : nil
        await runner.run(clients: clients, results: results)
        ticker?.cancel()
        let summary = results.snapshot(elapsed: clock.now - start)
        for client in clients { await client.stop() }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }

        let report = LoadReport(mix: mix, pacing: pacingText, tally: summary, baseline: baselineSummary)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
        if summary.unanswered > 0 { throw ExitCode(3) }
    }

    /// A live progress line on standard error, only when it is a terminal and no JSON is wanted.
    var showProgress: Bool { !json && isatty(STDERR_FILENO) != 0 }

    func progress(_ line: String) {
        if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    func tick(results: LoadResults, start: ContinuousClock.Instant, clock: ContinuousClock) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let now = results.snapshot(elapsed: clock.now - start)
            let errors = now.errors.values.reduce(0, +)
            let line = String(
                format: "\r\u{1B}[K%.0f req/s  %d answered  %d errors  %d unanswered  p99 %.2f ms",
                now.throughput, now.answered, errors, now.unanswered, Double(now.latency.p99) / 1000)
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
