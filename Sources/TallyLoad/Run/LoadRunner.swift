import Foundation
import Synchronization
import TallyClient
import TallyProtocol

/// Drives a running Tally with a workload, closed-loop or open-loop, until a request count or a duration is
/// reached, whichever comes first.
package struct LoadRunner: Sendable {
    /// How requests are paced.
    package enum Pacing: Sendable, Hashable {
        /// `inFlight` requests outstanding at all times: throughput as fast as Tally answers.
        case closedLoop(inFlight: Int)
        /// Requests start on a fixed schedule whatever the answers do; latency is measured from each request's
        /// scheduled start, so a stall shows up in the latencies (no coordinated omission).
        case openLoop(perSecond: Double)
    }

    package var workload: Workload
    package var pacing: Pacing
    package var requests: Int?
    package var duration: Duration?
    package var timeout: Duration
    /// Largest number of outstanding requests an open-loop run allows; beyond it a request counts as unanswered
    /// at once (the load generator itself must stay bounded).
    package var maxOutstanding = 50_000
    /// Closed-loop lanes per task group (see `run`).
    static let lanesPerGroup = 256

    package init(workload: Workload, pacing: Pacing, requests: Int?, duration: Duration?, timeout: Duration) {
        self.workload = workload
        self.pacing = pacing
        self.requests = requests
        self.duration = duration
        self.timeout = timeout
    }

    /// Runs the load through `clients` (spread round-robin), reporting into `results`.
    package func run(clients: [TallyClient], results: LoadResults) async {
        let clock = ContinuousClock()
        let start = clock.now
        let end = duration.map { start + $0 }
        let budget = Budget(limit: requests)
        switch pacing {
        case .closedLoop(let inFlight):
            // Lanes run in groups of `lanesPerGroup`, each group a task of an outer group: the runtime removes a
            // finished child by walking its group's list of children, so 100,000 lanes in one group (the broker
            // flood of Benchmarks/run-e2e.sh) spent most of tally-load's CPU in that walk, O(n²), and the run
            // measured the load tool instead of the broker.
            // Each lane runs on its client's I/O thread (`TallyClient.executor`): a request reaches the socket and
            // its reply reaches the lane without waking another thread, which halved tally-load's CPU per request
            // at 1 in flight (29 µs against 64 µs, user + system) and cut it by a quarter at 100.
            let lanes = max(1, inFlight)
            await withDiscardingTaskGroup { groups in
                for first in stride(from: 0, to: lanes, by: Self.lanesPerGroup) {
                    groups.addTask {
                        await withDiscardingTaskGroup { group in
                            for lane in first..<min(first + Self.lanesPerGroup, lanes) {
                                let client = clients[lane % clients.count]
                                group.addTask(executorPreference: client.executor) {
                                    while let sequence = budget.take(), end.map({ clock.now < $0 }) ?? true {
                                        await send(
                                            sequence, through: client, scheduledAt: clock.now, clock: clock,
                                            results: results)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        case .openLoop(let perSecond):
            let interval = Duration.seconds(1 / max(perSecond, 0.001))
            let outstanding = InFlightCounter()
            // Discarding: a finished request's task is let go at once, not kept (with its result) until the end
            // of the run, which made a long open-loop run grow without bound.
            await withDiscardingTaskGroup { group in
                var scheduled = start
                while let sequence = budget.take() {
                    if let end, scheduled >= end { break }
                    try? await Task.sleep(until: scheduled, clock: clock)
                    let client = clients[sequence % clients.count]
                    let at = scheduled
                    if outstanding.value >= maxOutstanding {
                        let row = workload.pick(sequence).entry
                        results.sent(row)
                        results.unanswered(row)
                    } else {
                        outstanding.add(1)
                        group.addTask {
                            await send(sequence, through: client, scheduledAt: at, clock: clock, results: results)
                            outstanding.add(-1)
                        }
                    }
                    scheduled += interval
                }
            }
        }
    }

    private func send(
        _ sequence: Int, through client: TallyClient, scheduledAt: ContinuousClock.Instant, clock: ContinuousClock,
        results: LoadResults
    ) async {
        let (row, template) = workload.pick(sequence)
        results.sent(row)
        do {
            let reply = try await client.send(
                rawBody: template.body(id: "load-\(sequence)"), service: template.service, timeout: timeout)
            let elapsed = clock.now - scheduledAt
            results.answered(
                row, microseconds: Self.microseconds(elapsed), errorCode: EnvelopeScanner.errorCode(in: reply))
        } catch {
            if error.isFromServer {
                results.answered(
                    row, microseconds: Self.microseconds(clock.now - scheduledAt), errorCode: error.code.rawValue)
            } else {
                results.unanswered(row)
            }
        }
    }

    static func microseconds(_ duration: Duration) -> UInt64 {
        UInt64(max(0, duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000))
    }
}

/// Hands out request sequence numbers up to a limit, from any task.
final class Budget: Sendable {
    private let next = Mutex(0)
    private let limit: Int?

    init(limit: Int?) { self.limit = limit }

    func take() -> Int? {
        next.withLock { value in
            if let limit, value >= limit { return nil }
            defer { value += 1 }
            return value
        }
    }
}

/// Requests started and not yet finished.
final class InFlightCounter: Sendable {
    private let count = Atomic<Int>(0)

    func add(_ delta: Int) { count.add(delta, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}
