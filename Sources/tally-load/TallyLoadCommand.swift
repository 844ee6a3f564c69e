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

            --stages DURATION:TARGET,… (k6's stages) replaces --duration: each stage moves the target linearly from \
            the previous one's (at first the --rate or --in-flight given, else 0) to its own over its duration; \
            with --rate the target is requests per second (open loop), otherwise requests in flight (closed loop). \
            A 0s stage is a step.

            The report counts each request once: succeeded (a result), failed (an error answer, by code) or no \
            answer within --timeout. Throughput is successes per second; the error rate counts failures and \
            requests without an answer; latency percentiles are of successes, and errors' latencies are reported \
            apart. One row per request kind, and one for all. Latencies are in milliseconds; n/a means nothing \
            was measured.

            --baseline first measures a raw libzmq ROUTER↔DEALER echo with the same body size and in-flight count \
            (one hop, no broker) and reports Tally as ratios of it: track the ratios, not absolute figures, on \
            shared machines.

            Thresholds (--max-error-rate, --max-p95, --max-p99, --max-p999, --max-unanswered) take LIMIT for the \
            whole run or METHOD=LIMIT for that method's rows (every size of it, or one row: workout.day@1y); \
            repeat them. --abort-on-fail stops the run once one can no longer be met: at once when it has failed \
            for good (more unanswered requests than a --max-unanswered count; with --requests, more failed, \
            unanswered or slow requests than the limit allows over all the planned requests); in a run without \
            --requests, when one fails over the run so far after --abort-delay.

            SIGINT (Ctrl-C) or SIGTERM stops the run: no new requests, those in flight get up to their --timeout \
            (at most 5 s; a second signal stops waiting), then the report of the run so far, thresholds evaluated, \
            and exit 130 or 143. Progress goes to standard error: a live line on a terminal, else a plain line \
            every --progress-interval (also with --json; 0 for none).

            Exit status: 0; 4 when a threshold failed (each named on standard error) or --abort-on-fail stopped \
            the run; else 3 when --max-unanswered failed or, without one, some request got no answer; 130 or 143 \
            after SIGINT or SIGTERM; 64 for a usage error. With --curve-secret-key and --curve-server-key (as for \
            tally) it reaches a CURVE broker.

            Examples:
              tally-load --mix system.ping --in-flight 100 --requests 100000 --baseline
              tally-load --mix "system.ping=3,streak.summary@1y=1" --rate 2000 --duration 1m30s --json
              tally-load --body Protocol/examples --duration 30s --max-error-rate 40% --max-p99 50ms --hgrm run.hgrm
              tally-load --mix "system.ping=3,workout.day@1y=1" --rate 0 --stages 10s:100,30s:1000,10s:0 \\
                --max-p99 workout.day=80ms --max-p95 20ms --max-unanswered 0 --abort-on-fail
            """,
        version: TallyBuild.version)

    @Option(name: ConnectionSettings.broker.flag, help: ConnectionSettings.broker.help)
    var broker: [String] = []

    @OptionGroup var brokerHeartbeat: BrokerHeartbeatOptions

    @OptionGroup var curve: CurveClientOptions<ConnectionSettings>

    /// The settings `tally-load` also reads from the environment (how it reaches the brokers); the rest are flags
    /// of a run.
    static let settings = SettingCatalog(
        program: "tally-load",
        settings: [ConnectionSettings.broker.documentation] + BrokerHeartbeatOptions.settings
            + CurveClientOptions<ConnectionSettings>.settings)

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

    @Option(
        help:
            "Closed loop: requests kept in flight; with --stages, the count they start from. (default: 100 unless --rate)"
    )
    var inFlight: Int?

    @Option(help: "Open loop: requests started per second; with --stages, the rate they start from (0 allowed).")
    var rate: Double?

    @Option(
        help: ArgumentHelp(
            "Instead of --duration: DURATION:TARGET,… (e.g. 10s:100,30s:1000,10s:0), each stage ramping linearly to its target: requests per second with --rate, else in flight.",
            valueName: "stages"))
    var stages: String?

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
            "Fail (exit 4) when failed and unanswered requests exceed this share: 1% or 0.01; METHOD=1% for one method; repeat.",
            valueName: "rate"))
    var maxErrorRate: [String] = []

    @Option(name: .customLong("max-p95"), help: Self.latencyLimitHelp("p95", example: "100ms"))
    var maxP95: [String] = []

    @Option(name: .customLong("max-p99"), help: Self.latencyLimitHelp("p99", example: "250ms"))
    var maxP99: [String] = []

    @Option(name: .customLong("max-p999"), help: Self.latencyLimitHelp("p99.9", example: "1s"))
    var maxP999: [String] = []

    @Option(
        help: ArgumentHelp(
            "Fail (exit 3) when more requests than this go unanswered: a count (0) or a share of those that ended (1%); METHOD=… for one method; repeat. Without it, any unanswered request means exit 3.",
            valueName: "limit"))
    var maxUnanswered: [String] = []

    @Flag(help: "Stop the run (exit 4) as soon as a threshold can no longer be met.")
    var abortOnFail = false

    @Option(
        help: ArgumentHelp(
            "With --abort-on-fail and no --requests: how long the run goes before thresholds over the run so far may stop it.",
            valueName: "duration"))
    var abortDelay = DurationArgument(.seconds(5))

    @Option(
        help: ArgumentHelp(
            "When standard error is not a terminal: a progress line this often, e.g. 5s; 0 for none (on a terminal, 0 hides the live line).",
            valueName: "duration"))
    var progressInterval = DurationArgument(.seconds(5))

    @Option(
        help: ArgumentHelp(
            "Write the latency distribution of successes to this file in HdrHistogram's .hgrm format (milliseconds), for plotting.",
            valueName: "file"))
    var hgrm: String?

    @Flag(help: "Measure a raw libzmq ROUTER↔DEALER echo first and report ratios.")
    var baseline = false

    @Flag(
        help:
            "Print the report as JSON on standard output (no live progress line; plain progress lines still go to standard error)."
    )
    var json = false

    func validate() throws {
        if inFlight != nil && rate != nil { throw ValidationError("give --in-flight or --rate, not both") }
        if mix != nil && !bodies.isEmpty { throw ValidationError("give --mix or --body, not both") }
        if let inFlight, !((stages == nil ? 1 : 0)...100_000).contains(inFlight) {
            throw ValidationError(stages == nil ? "--in-flight must be 1...100000" : "--in-flight must be 0...100000")
        }
        if let rate, !((rate > 0 || (stages != nil && rate == 0)) && rate <= 1_000_000) {
            throw ValidationError(stages == nil ? "--rate must be in (0, 1000000]" : "--rate must be in [0, 1000000]")
        }
        if stages != nil && duration != nil {
            throw ValidationError("give --stages or --duration, not both: the stages say how long the run lasts")
        }
        _ = try pacing()
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
        _ = try thresholds()
        if progressInterval.duration < .zero { throw ValidationError("--progress-interval must be 0 or more") }
        if abortDelay.duration < .zero { throw ValidationError("--abort-delay must be 0 or more") }
        if let hgrm, hgrm.isEmpty { throw ValidationError("--hgrm needs a file name") }
    }

    func run() async throws {
        let settings = try SettingSources(configPath: nil, catalog: Self.settings)
        let brokers = try settings.resolve(broker, ConnectionSettings.broker)
        var configuration = TallyClientConfiguration(brokers: brokers)
        configuration.retries = 0
        configuration.timeout = timeout.duration
        try brokerHeartbeat.apply(settings, to: &configuration)
        let curveKeys = try curve.keys(settings)
        let pacing = try pacing()
        let runDuration =
            pacing.stages?.duration ?? duration?.duration ?? (requests == nil ? .seconds(10) : nil)
        let workload = try makeWorkload()
        let thresholds = try thresholds()
        let unknown = thresholds.unknownMethods(among: workload.labels)
        guard unknown.isEmpty else {
            throw ValidationError(
                "thresholds name \(unknown.map { "'\($0)'" }.joined(separator: ", ")), which the run does not send "
                    + "(its rows: \(workload.labels.joined(separator: ", ")))")
        }
        // A distribution file that cannot be written is found out before the run, not after it.
        if let hgrm, !FileManager.default.createFile(atPath: hgrm, contents: Data()) {
            throw ValidationError("--hgrm: cannot write \(hgrm)")
        }

        var baselineSummary: LoadSummary?
        if baseline {
            let echoInFlight = max(1, inFlight ?? pacing.stages.map { Int($0.highestTarget.rounded()) } ?? 100)
            progress("raw echo baseline: \(workload.averageBodySize)-byte bodies, \(echoInFlight) in flight…")
            baselineSummary = try RawEchoBaseline(
                bodySize: workload.averageBodySize, inFlight: echoInFlight, requests: requests, duration: runDuration
            ).run()
        }

        if let curveKeys {
            do {
                configuration.security = try .curve(
                    clientSecretKeyFile: curveKeys.secretKey, serverPublicKey: curveKeys.serverKey)
            } catch {
                throw ValidationError(error.message)
            }
        }
        var clients: [TallyClient] = []
        for _ in 0..<connections {
            let client = try TallyClient(configuration: configuration)
            try client.start()
            clients.append(client)
        }
        let results = LoadResults(labels: workload.labels)
        let runner = LoadRunner(
            workload: workload, pacing: pacing, requests: requests, duration: runDuration, timeout: timeout.duration)
        let isTerminal = isatty(STDERR_FILENO) != 0
        let showsProgress = progressInterval.duration > .zero
        let session = LoadSession(
            runner: runner, clients: clients, results: results, thresholds: thresholds, abortOnFail: abortOnFail,
            abortDelay: abortDelay.duration,
            plainProgress: showsProgress && !isTerminal ? progressInterval.duration : nil,
            liveProgress: showsProgress && isTerminal && !json)
        let outcome = await session.run()
        let snapshot = outcome.snapshot
        var brokerRows = brokers.map { LoadReport.BrokerRow(endpoint: $0, connected: 0, losses: 0) }
        for client in clients {
            for (index, state) in (await client.brokerConnections()).enumerated() {
                brokerRows[index].connected += state.isConnected ? 1 : 0
                brokerRows[index].losses += state.losses
            }
            await client.stop()
        }
        // Stopping the clients ended the requests the drain did not wait for.
        await outcome.runner.value

        var report = LoadReport(
            mix: workload.description, pacing: pacing.text, snapshot: snapshot, baseline: baselineSummary,
            thresholds: thresholds)
        report.bodyBytes = workload.averageBodySize
        report.brokers = brokerRows
        report.stages = pacing.stages
        report.stoppedBy = outcome.stoppedBy.map { reason in
            switch reason {
            case .signal(let number): LoadExitStatus.signalName(number)
            case .thresholdFailed: "abort-on-fail"
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
        if let hgrm { try writeDistribution(snapshot, to: hgrm) }
        for threshold in report.thresholds where !threshold.passed {
            printError("threshold failed: \(threshold.option): \(threshold.text)")
        }
        if case .thresholdFailed(let why) = outcome.stoppedBy {
            printError("--abort-on-fail stopped the run: \(why)")
        }
        let status = LoadExitStatus.code(
            stoppedBy: outcome.stoppedBy, thresholds: report.thresholds, unanswered: snapshot.all.unanswered,
            limitsUnanswered: thresholds.limitsUnanswered)
        if status != 0 { throw ExitCode(status) }
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

    func progress(_ line: String) {
        if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    func printError(_ line: String) {
        FileHandle.standardError.write(Data(("tally-load: " + line + "\n").utf8))
    }
}
