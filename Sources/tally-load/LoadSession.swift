import Foundation
import TallyClient
import TallyLoad
import UnixSignals

/// One load run as the operator lives it: the runner going, progress on standard error, SIGINT and SIGTERM
/// stopping it with a report rather than killing it, and `--abort-on-fail` watching the thresholds.
///
/// A stop (a signal, or a threshold that can no longer be met) starts no more requests and waits for those in
/// flight: until they end, at most `drainLimit` (their `--timeout` when shorter), or until a second signal. Then
/// the figures so far are the report's; requests still out are counted as in flight, not as unanswered, since
/// nothing is known of them.
struct LoadSession {
    var runner: LoadRunner
    var clients: [TallyClient]
    var results: LoadResults
    var thresholds: LoadThresholds
    var abortOnFail: Bool
    /// How long a run without a known request count goes before thresholds over the run so far may abort it.
    var abortDelay: Duration
    /// Between two plain progress lines; `nil` for none.
    var plainProgress: Duration?
    /// Whether to redraw a live progress line each second (standard error is a terminal).
    var liveProgress: Bool

    /// The longest a stopped run waits for its requests in flight.
    static let drainLimit: Duration = .seconds(5)
    /// How often `--abort-on-fail` looks at the thresholds.
    static let abortCheckInterval: Duration = .milliseconds(250)

    struct Outcome {
        var snapshot: LoadSnapshot
        var stoppedBy: RunControl.Reason?
        /// The runner, still finishing requests when the drain ran out: await it once the clients are stopped.
        var runner: Task<Void, Never>
    }

    func run() async -> Outcome {
        let control = RunControl()
        let clock = ContinuousClock()
        let start = clock.now
        let (ended, end) = AsyncStream<Void>.makeStream()
        let drain = min(runner.timeout + .milliseconds(250), Self.drainLimit)
        // A stop waits for the requests in flight, but not for longer than `drain`.
        let stop = { @Sendable (reason: RunControl.Reason, message: String) in
            guard control.stop(reason) else { return }
            Self.note("\(message); waiting up to \(Self.seconds(drain)) for the requests in flight")
            Task {
                try? await Task.sleep(for: drain)
                end.yield()
            }
        }
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        let runner = self.runner
        let clients = self.clients
        let results = self.results
        let running = Task {
            await runner.run(clients: clients, results: results, control: control)
            end.yield()
        }
        var watchers: [Task<Void, Never>] = []
        watchers.append(
            Task {
                for await signal in signals {
                    let name = LoadExitStatus.signalName(signal.rawValue)
                    if control.isStopped {
                        Self.note("\(name) again: not waiting any longer")
                        end.yield()
                    } else {
                        stop(
                            .signal(signal.rawValue),
                            "\(name): starting no more requests (\(name) again to stop waiting)")
                    }
                }
            })
        if abortOnFail {
            watchers.append(Task { await watchThresholds(control: control, start: start, clock: clock, stop: stop) })
        }
        if liveProgress {
            watchers.append(
                Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(1))
                        let line = ProgressLine.live(results.total(elapsed: clock.now - start))
                        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
                    }
                })
        }
        if let plainProgress {
            watchers.append(
                Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: plainProgress)
                        guard !Task.isCancelled else { break }
                        let elapsed = clock.now - start
                        let target = runner.pacing.stages.map { _ in targetText(atSeconds: Self.secondsValue(elapsed)) }
                        let line = ProgressLine.plain(results.total(elapsed: elapsed), target: target)
                        FileHandle.standardError.write(Data((line + "\n").utf8))
                    }
                })
        }
        for await _ in ended { break }
        let snapshot = results.snapshot(elapsed: clock.now - start)
        for watcher in watchers { watcher.cancel() }
        if liveProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        return Outcome(snapshot: snapshot, stoppedBy: control.reason, runner: running)
    }

    /// Stops the run once a threshold can no longer be met (see `LoadThresholds.failedForGood`): for good at
    /// once; over the run so far after `abortDelay`, when the run's request count is not known beforehand.
    func watchThresholds(
        control: RunControl, start: ContinuousClock.Instant, clock: ContinuousClock,
        stop: @Sendable (RunControl.Reason, String) -> Void
    ) async {
        let planned = runner.plannedRequests
        let knowsCount = runner.requests != nil
        while !Task.isCancelled, !control.isStopped {
            try? await Task.sleep(for: Self.abortCheckInterval)
            let elapsed = clock.now - start
            let snapshot = results.snapshot(elapsed: elapsed)
            var failure = thresholds.failedForGood(in: snapshot, plannedRequests: knowsCount ? planned : nil)
            if failure == nil, !knowsCount, elapsed >= abortDelay, let failing = thresholds.failingSoFar(in: snapshot) {
                failure = "\(failing.option): \(failing.text) over the first \(Self.seconds(elapsed))"
            }
            if let failure {
                stop(.thresholdFailed(failure), "--abort-on-fail: \(failure): starting no more requests")
                return
            }
        }
    }

    /// The staged target now, for the progress line: `300/s`, `30 in flight`.
    func targetText(atSeconds seconds: Double) -> String {
        let target = runner.pacing.target(atSeconds: seconds)
        switch runner.pacing {
        case .openLoop, .openLoopStages: return String(format: "%.0f/s", target)
        case .closedLoop, .closedLoopStages: return "\(Int(target.rounded())) in flight"
        }
    }

    static func secondsValue(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// `5.0 s`.
    static func seconds(_ duration: Duration) -> String { String(format: "%.1f s", secondsValue(duration)) }

    static func note(_ line: String) {
        FileHandle.standardError.write(Data(("tally-load: " + line + "\n").utf8))
    }
}
