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
        abstract: "Drive a running Tally with a request mix and report throughput, errors and latency.",
        discussion: """
            Requests come from a seeded generator (same --seed, same requests): step histories of 30 days (30d), \
            1 year (1y), 2, 3 or 10 years (2y, 3y, 10y) with goal changes, weekends, missing and zero days; workouts, \
            stretches and meditations over the same spans. Or from files (--body): Protocol examples \
            (Protocol/examples), bare v1 envelopes, or .jsonl files of envelopes captured from traffic; each is \
            sent with a fresh id.

            Closed loop (--in-flight N) keeps N requests outstanding; open loop (--rate R) starts R requests per \
            second on a fixed schedule and measures each latency from its scheduled start, so stalls are not \
            hidden (no coordinated omission). The run stops after --requests or --duration, whichever first.

            The report counts each request once: succeeded (a result), failed (an error answer, by code) or no \
            answer within --timeout. Throughput is successes per second; the error rate counts failures and \
            requests without an answer; latency percentiles are of successes, and errors' latencies are reported \
            apart. One row per request kind, and one for all. Latencies are in milliseconds; n/a means nothing \
            was measured.

            --baseline first measures a raw libzmq ROUTER↔DEALER echo with the same body size and in-flight count \
            (one hop, no broker) and reports Tally as ratios of it: track the ratios, not absolute figures, on \
            shared machines.

            Exit status: 0; 4 when a threshold (--max-error-rate, --max-p99) failed, each named on standard error; \
            else 3 when some request got no answer; 64 for a usage error.

            Examples:
              tally-load --mix system.ping --in-flight 100 --requests 100000 --baseline
              tally-load --mix "system.ping=3,streak.summary@1y=1" --rate 2000 --duration 1m30s --json
              tally-load --body Protocol/examples --duration 30s --max-error-rate 40% --max-p99 50ms --hgrm run.hgrm
            """,
        version: TallyBuild.version)

    @Option(name: ConnectionSettings.broker.flag, help: ConnectionSettings.broker.help)
    var broker: [String] = []

    @Option(name: ConnectionSettings.brokerHeartbeat.flag, help: ConnectionSettings.brokerHeartbeat.help)
    var brokerHeartbeat: DurationArgument?

    @Option(name: ConnectionSettings.brokerTimeout.flag, help: ConnectionSettings.brokerTimeout.help)
    var brokerTimeout: DurationArgument?

    /// The settings `tally-load` also reads from the environment (how it reaches the brokers); the rest are flags
    /// of a run.
    static let settings = SettingCatalog(
        program: "tally-load",
        settings: [
            ConnectionSettings.broker.documentation, ConnectionSettings.brokerHeartbeat.documentation,
            ConnectionSettings.brokerTimeout.documentation,
        ])

    @Option(
        help:
            "Request mix: method[@size][=weight], comma-separated. Methods: \(RequestKind.generators.keys.sorted().joined(separator: ", ")); sizes: \(HistorySize.allCases.map(\.rawValue).joined(separator: ", ")). (default: system.ping unless --body)"
    )
    var mix: String?

    @Option(
        name: .customLong("body"),
        help: ArgumentHelp(
            "Send these requests instead of a mix: a JSON file (a Protocol example or a v1 envelope), a .jsonl file (one per line) or a folder of them; repeat for several.",
            valueName: "path"))
    var bodies: [String] = []

    @Option(help: "Closed loop: requests kept in flight. (default: 100 unless --rate)")
    var inFlight: Int?

    @Option(help: "Open loop: requests started per second.")
    var rate: Double?

    @Option(help: "Stop after this many requests.")
    var requests: Int?

    @Option(help: "Stop after this long, e.g. 30s or 1m30s. (default: 10s when --requests is not given)")
    var duration: DurationArgument?

    @Option(help: "Client connections (each its own socket and I/O thread).")
    var connections = 1

    @Option(help: "Time each request may take before it counts as without an answer.")
    var timeout = DurationArgument(.seconds(10))

    @Option(help: "Seed of the request generator.")
    var seed: UInt64 = 42

    @Option(help: "Distinct requests generated per kind.")
    var variants = 8

    @Option(
        help: ArgumentHelp(
            "Fail (exit 4) when failed and unanswered requests exceed this share: 1% or 0.01.", valueName: "rate"))
    var maxErrorRate: String?

    @Option(
        help: ArgumentHelp(
            "Fail (exit 4) when the p99 latency of successes exceeds this, e.g. 250ms.", valueName: "duration"))
    var maxP99: DurationArgument?

    @Option(
        help: ArgumentHelp(
            "Write the latency distribution of successes to this file in HdrHistogram's .hgrm format (milliseconds), for plotting.",
            valueName: "file"))
    var hgrm: String?

    @Flag(help: "Measure a raw libzmq ROUTER↔DEALER echo first and report ratios.")
    var baseline = false

    @Flag(help: "Print the report as JSON on standard output (the progress line is off).")
    var json = false

    func validate() throws {
        if inFlight != nil && rate != nil { throw ValidationError("give --in-flight or --rate, not both") }
        if mix != nil && !bodies.isEmpty { throw ValidationError("give --mix or --body, not both") }
        if let inFlight, !(1...100_000).contains(inFlight) { throw ValidationError("--in-flight must be 1...100000") }
        if let rate, !(rate > 0 && rate <= 1_000_000) { throw ValidationError("--rate must be in (0, 1000000]") }
        if let requests, requests < 1 { throw ValidationError("--requests must be at least 1") }
        if let duration, duration.duration <= .zero {
            throw ValidationError(
                "--duration must be longer than 0 (e.g. 10s, 1m30s); to stop by count, give --requests")
        }
        if timeout.duration <= .zero || timeout.duration > .seconds(3600) {
            throw ValidationError("--timeout must be longer than 0 and at most 1h")
        }
        if !(1...64).contains(connections) { throw ValidationError("--connections must be 1...64") }
        if !(1...10_000).contains(variants) { throw ValidationError("--variants must be 1...10000") }
        if let maxErrorRate, LoadThresholds.errorRate(parsing: maxErrorRate) == nil {
            throw ValidationError(
                "--max-error-rate must be a percentage from 0% to 100% or a fraction from 0 to 1 (got '\(maxErrorRate)')"
            )
        }
        if let maxP99, maxP99.duration <= .zero { throw ValidationError("--max-p99 must be longer than 0") }
        if let hgrm, hgrm.isEmpty { throw ValidationError("--hgrm needs a file name") }
    }

    func run() async throws {
        let settings = try SettingSources(configPath: nil, catalog: Self.settings)
        let brokers = try settings.resolve(broker, ConnectionSettings.broker)
        let heartbeat = try settings.resolve(brokerHeartbeat, ConnectionSettings.brokerHeartbeat)
        let brokerPatience = try settings.resolve(brokerTimeout, ConnectionSettings.brokerTimeout)
        let runDuration = duration?.duration ?? (requests == nil ? .seconds(10) : nil)
        let workload = try makeWorkload()
        // A distribution file that cannot be written is found out before the run, not after it.
        if let hgrm, !FileManager.default.createFile(atPath: hgrm, contents: Data()) {
            throw ValidationError("--hgrm: cannot write \(hgrm)")
        }
        let thresholds = LoadThresholds(
            maxErrorRate: maxErrorRate.flatMap(LoadThresholds.errorRate(parsing:)), maxP99: maxP99?.duration)
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
            ConnectionSettings.apply(heartbeat: heartbeat, timeout: brokerPatience, to: &configuration)
            let client = try TallyClient(configuration: configuration)
            try client.start()
            clients.append(client)
        }
        let results = LoadResults(labels: workload.labels)
        let runner = LoadRunner(
            workload: workload, pacing: pacing, requests: requests, duration: runDuration, timeout: timeout.duration)
        let clock = ContinuousClock()
        let start = clock.now
        let ticker = showProgress ? Task { await tick(results: results, start: start, clock: clock) } : nil
        await runner.run(clients: clients, results: results)
        ticker?.cancel()
        let snapshot = results.snapshot(elapsed: clock.now - start)
        var brokerRows = brokers.map { LoadReport.BrokerRow(endpoint: $0, connected: 0, losses: 0) }
        for client in clients {
            for (index, state) in (await client.brokerConnections()).enumerated() {
                brokerRows[index].connected += state.isConnected ? 1 : 0
                brokerRows[index].losses += state.losses
            }
            await client.stop()
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }

        var report = LoadReport(
            mix: workload.description, pacing: pacingText, snapshot: snapshot, baseline: baselineSummary,
            thresholds: thresholds)
        report.bodyBytes = workload.averageBodySize
        report.brokers = brokerRows
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
        if let hgrm { try writeDistribution(snapshot, to: hgrm) }
        let failed = report.thresholds.filter { !$0.passed }
        for threshold in failed {
            printError("threshold failed: --\(threshold.name): \(threshold.text)")
        }
        if !failed.isEmpty { throw ExitCode(4) }
        if snapshot.all.unanswered > 0 { throw ExitCode(3) }
    }

    /// The requests: generated from the mix, or read from --body.
    func makeWorkload() throws -> Workload {
        do {
            if !bodies.isEmpty {
                let templates = try RequestBodyFiles.load(bodies)
                return try Workload(
                    bodies: templates,
                    description: "--body \(bodies.joined(separator: " ")) (\(templates.count) requests)")
            }
            let today = ReferenceDay(now: .now, in: ZoneCalendar(identifier: "Europe/Berlin")!).today
            return try Workload(mix: mix ?? "system.ping", seed: seed, today: today, variants: variants)
        } catch {
            throw ValidationError("\(bodies.isEmpty ? "--mix" : "--body"): \(error)")
        }
    }

    func writeDistribution(_ snapshot: LoadSnapshot, to path: String) throws {
        guard let text = PercentileDistribution.hgrm(snapshot.successLatencies) else {
            try? FileManager.default.removeItem(atPath: path)
            printError("--hgrm: no request succeeded, so there is no distribution; \(path) not written")
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            printError("--hgrm: cannot write \(path): \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }

    /// A live progress line on standard error, only when it is a terminal and no JSON is wanted.
    var showProgress: Bool { !json && isatty(STDERR_FILENO) != 0 }

    func progress(_ line: String) {
        if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    func printError(_ line: String) {
        FileHandle.standardError.write(Data(("tally-load: " + line + "\n").utf8))
    }

    /// Once a second: successes per second, requests, errors and the error rate, unanswered, and p99 of successes
    /// in the report's unit.
    func tick(results: LoadResults, start: ContinuousClock.Instant, clock: ContinuousClock) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            let now = results.total(elapsed: clock.now - start)
            let line =
                "\r\u{1B}[K\(ReportFormat.rate(now.successesPerSecond)) successes/s  \(now.sent) sent  "
                + "\(now.failed) errors  \(now.unanswered) no answer  error rate \(ReportFormat.percent(now.errorRate))  "
                + "p99 \(now.latency.map { ReportFormat.milliseconds($0.p99) + " ms" } ?? ReportFormat.notMeasured)"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
